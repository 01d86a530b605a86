package dev.puddle.core.auth;

import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.auth.ClientCredentials.PrincipalRef;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.rest.auth.OAuth2Properties;
import org.apache.iceberg.rest.auth.OAuth2Util;
import org.apache.iceberg.rest.responses.OAuthTokenResponse;

/**
 * {@code POST /v1/oauth/tokens}: Puddle's OAuth2 token endpoint, as Iceberg's REST clients and
 * Apache Polaris speak it. The request is form-encoded; the client authenticates with {@code
 * client_id} and {@code client_secret} in the body or with HTTP Basic. Two grants:
 *
 * <ul>
 *   <li>{@code client_credentials}: a token for the principal whose credential it is, activating
 *       the principal roles of {@code scope} ({@link PrincipalRoleScope#parseRequested});
 *   <li>token exchange (RFC 8693), which Iceberg's clients use to refresh: a valid Puddle access
 *       token as {@code subject_token} gets a fresh one for the same principal, realm and roles.
 *       Client credentials, if sent too, must be the same principal's.
 * </ul>
 *
 * <p>Success is Iceberg's {@link OAuthTokenResponse}; a refusal is an {@link OAuthError}. An
 * unknown client id and a wrong secret get the same answer.
 */
public final class TokenEndpoint {
  public static final String CLIENT_CREDENTIALS = "client_credentials";
  public static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

  private static final String BASIC = "basic ";

  /** A client's id and secret, from the body or the Authorization header. */
  private record Client(String id, String secret) {
    @Override
    public String toString() {
      return "Client[id=" + id + "]";
    }
  }

  private final TokenIssuer issuer;
  private final ClientCredentials clients;
  private final JwtAuthenticator ownTokens;

  /**
   * An endpoint issuing with {@code issuer}, checking secrets with {@code clients}, and verifying
   * tokens to exchange with {@code ownTokens}, which trusts this issuer alone.
   */
  public TokenEndpoint(TokenIssuer issuer, ClientCredentials clients, JwtAuthenticator ownTokens) {
    this.issuer = issuer;
    this.clients = clients;
    this.ownTokens = ownTokens;
  }

  /** Forgets the signing keys and cached public keys: after a SnapStart restore. */
  public void clear() {
    issuer.clear();
    ownTokens.clear();
  }

  public Response handle(Request request) {
    try {
      Map<String, String> form = FormBody.parse(request.body());
      Optional<Client> client = client(request, form);
      String grant = form.get("grant_type");
      if (grant == null || grant.isBlank()) {
        throw OAuthError.invalidRequest("Missing grant_type");
      }
      TokenIssuer.Token token =
          switch (grant) {
            case CLIENT_CREDENTIALS -> clientCredentials(client, form);
            case TOKEN_EXCHANGE -> exchange(client, form);
            default ->
                throw OAuthError.unsupportedGrantType(
                    "Supported grant types: " + CLIENT_CREDENTIALS + ", " + TOKEN_EXCHANGE);
          };
      OAuthTokenResponse response =
          OAuthTokenResponse.builder()
              .withToken(token.value())
              .withTokenType("bearer")
              .withIssuedTokenType(OAuth2Properties.ACCESS_TOKEN_TYPE)
              .setExpirationInSeconds(Math.toIntExact(token.expiresIn().toSeconds()))
              .addScope(token.scope().toScope())
              .build();
      return Response.json(200, OAuth2Util.tokenResponseToJson(response))
          .withHeader("cache-control", "no-store")
          .withHeader("pragma", "no-cache");
    } catch (OAuthError e) {
      Response refused = e.toResponse();
      return e.error().equals(OAuth2Properties.INVALID_CLIENT_ERROR)
          ? refused.withHeader("www-authenticate", "Basic realm=\"puddle\"")
          : refused;
    }
  }

  private TokenIssuer.Token clientCredentials(Optional<Client> client, Map<String, String> form) {
    PrincipalRoleScope scope =
        PrincipalRoleScope.parseRequested(form.get("scope"))
            .orElseThrow(
                () ->
                    OAuthError.invalidScope(
                        "Scopes are "
                            + PrincipalRoleScope.ALL
                            + " or "
                            + PrincipalRoleScope.PREFIX
                            + "<principal role>, separated by spaces"));
    PrincipalRef principal =
        verified(client.orElseThrow(() -> OAuthError.invalidClient("Missing client credentials")));
    return issuer.issue(principal, scope);
  }

  private TokenIssuer.Token exchange(Optional<Client> client, Map<String, String> form) {
    String subjectToken = form.get("subject_token");
    if (subjectToken == null || subjectToken.isBlank()) {
      throw OAuthError.invalidRequest("Missing subject_token");
    }
    String type = form.get("subject_token_type");
    if (!OAuth2Properties.ACCESS_TOKEN_TYPE.equals(type)
        && !OAuth2Properties.JWT_TOKEN_TYPE.equals(type)) {
      throw OAuthError.invalidRequest(
          "subject_token_type must be " + OAuth2Properties.ACCESS_TOKEN_TYPE);
    }
    if (form.containsKey("actor_token")) {
      throw OAuthError.invalidRequest("Actor tokens are not supported");
    }
    Caller subject;
    try {
      subject = ownTokens.verify(subjectToken);
    } catch (NotAuthorizedException e) {
      throw OAuthError.invalidGrant("The subject token is not a valid Puddle access token");
    }
    if (client.isPresent()) {
      PrincipalRef principal = verified(client.get());
      if (!principal.equals(new PrincipalRef(subject.realm(), subject.principal()))) {
        throw OAuthError.invalidGrant("The subject token belongs to another principal");
      }
    }
    return issuer.issue(
        new PrincipalRef(subject.realm(), subject.principal()),
        new PrincipalRoleScope(subject.allRoles(), subject.roles()));
  }

  private PrincipalRef verified(Client client) {
    if (client.id() == null || client.id().isEmpty() || client.secret() == null) {
      throw OAuthError.invalidClient("Missing client credentials");
    }
    return clients
        .verify(client.id(), client.secret())
        .orElseThrow(() -> OAuthError.invalidClient("Invalid client credentials"));
  }

  /** The client's credentials, from exactly one of the Authorization header and the body. */
  private static Optional<Client> client(Request request, Map<String, String> form) {
    String header = request.header("authorization").orElse(null);
    boolean inBody = form.containsKey("client_id") || form.containsKey("client_secret");
    if (header != null && header.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
      if (inBody) {
        throw OAuthError.invalidRequest("Client credentials given both in the header and the body");
      }
      return Optional.of(basic(header.substring(BASIC.length()).trim()));
    }
    return inBody
        ? Optional.of(new Client(form.get("client_id"), form.get("client_secret")))
        : Optional.empty();
  }

  /** RFC 6749 section 2.3.1: base64 of the id, a colon and the secret. */
  private static Client basic(String encoded) {
    String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw OAuthError.invalidClient("Malformed Basic credentials");
    }
    int colon = decoded.indexOf(':');
    if (colon < 0) {
      throw OAuthError.invalidClient("Malformed Basic credentials");
    }
    return new Client(
        basicPart(decoded.substring(0, colon)), basicPart(decoded.substring(colon + 1)));
  }

  /**
   * RFC 6749 asks clients to form-encode id and secret, but Iceberg's clients send them raw; both
   * work as long as secrets need no encoding, as Puddle's do not.
   */
  private static String basicPart(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text;
    }
  }
}
