package dev.puddle.cdk;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.util.List;

/**
 * An external identity provider whose tokens the catalog accepts (context parameters {@code
 * jwtIssuer}, {@code jwtJwksUri}, {@code jwtAudience}, {@code jwtPrincipalClaim}): the functions
 * verify its tokens themselves from {@code PUDDLE_AUTH_ISSUERS}, and API Gateway's JWT authorizer
 * checks the same issuer and audiences first.
 */
public record ExternalIdp(
    String issuer, String jwksUri, List<String> audiences, String principalClaim) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public ExternalIdp {
    if (jwksUri == null) {
      throw new IllegalArgumentException("Context jwtJwksUri is required with jwtIssuer");
    }
    URI uri;
    try {
      uri = URI.create(jwksUri);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Context jwtJwksUri must be an https URL: " + jwksUri);
    }
    // the functions refuse keys fetched in the clear, which could be swapped on the way
    if (!"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
      throw new IllegalArgumentException("Context jwtJwksUri must be an https URL: " + jwksUri);
    }
    if (audiences.isEmpty()) {
      // API Gateway's JWT authorizer and the functions both need one
      throw new IllegalArgumentException("Context jwtAudience is required with jwtIssuer");
    }
    audiences = List.copyOf(audiences);
  }

  /**
   * The value of {@code PUDDLE_AUTH_ISSUERS}: this issuer alone, its tokens bound to the realm the
   * stack serves.
   */
  public String authIssuers(String realm) {
    ObjectNode node = JSON.createObjectNode();
    node.put("issuer", issuer);
    node.put("jwks-uri", jwksUri);
    ArrayNode audienceArray = node.putArray("audiences");
    audiences.forEach(audienceArray::add);
    node.put("principal-claim", principalClaim);
    node.put("realm", realm);
    return JSON.createArrayNode().add(node).toString();
  }
}
