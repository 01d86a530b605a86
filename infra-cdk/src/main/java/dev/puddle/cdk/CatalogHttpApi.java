package dev.puddle.cdk;

import dev.puddle.contract.FunctionGroup;
import dev.puddle.contract.Route;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.aws_apigatewayv2_authorizers.HttpJwtAuthorizer;
import software.amazon.awscdk.aws_apigatewayv2_integrations.HttpLambdaIntegration;
import software.amazon.awscdk.services.apigateway.AccessLogFormat;
import software.amazon.awscdk.services.apigatewayv2.HttpApi;
import software.amazon.awscdk.services.apigatewayv2.HttpMethod;
import software.amazon.awscdk.services.apigatewayv2.HttpRoute;
import software.amazon.awscdk.services.apigatewayv2.HttpRouteKey;
import software.amazon.awscdk.services.apigatewayv2.HttpStage;
import software.amazon.awscdk.services.apigatewayv2.IAccessLogDestination;
import software.amazon.awscdk.services.apigatewayv2.IAccessLogSettings;
import software.amazon.awscdk.services.apigatewayv2.IHttpRouteAuthorizer;
import software.amazon.awscdk.services.apigatewayv2.LogGroupLogDestination;
import software.amazon.awscdk.services.apigatewayv2.PayloadFormatVersion;
import software.amazon.awscdk.services.apigatewayv2.ThrottleSettings;
import software.amazon.awscdk.services.logs.LogGroup;
import software.constructs.Construct;

/**
 * The HTTP API: one route per entry of the route table served over HTTP, each integrated with the
 * alias of its group's function (payload format 2.0), and a catch-all {@code $default} route to the
 * read function, which answers 404 or 405 as Iceberg errors; the {@code $default} stage with
 * throttling and JSON access logs; optionally an API Gateway JWT authorizer for an external
 * identity provider, on every route that requires authentication (never the probes, nor the routes
 * that hand out tokens and their keys, nor the catch-all).
 */
final class CatalogHttpApi extends Construct {
  /** The route table groups served by the HTTP API. */
  static final Set<FunctionGroup> HTTP_GROUPS =
      EnumSet.of(
          FunctionGroup.READ,
          FunctionGroup.WRITE,
          FunctionGroup.SIGN,
          FunctionGroup.TOKEN,
          FunctionGroup.ADMIN);

  /**
   * What an access log line holds: who called what and how it went, never a header (so never the
   * Authorization header) nor a body.
   */
  static final Map<String, String> ACCESS_LOG_FIELDS =
      orderedMap(
          "requestId", "$context.requestId",
          "requestTime", "$context.requestTimeEpoch",
          "ip", "$context.identity.sourceIp",
          "method", "$context.httpMethod",
          "routeKey", "$context.routeKey",
          "path", "$context.path",
          "status", "$context.status",
          "protocol", "$context.protocol",
          "responseLength", "$context.responseLength",
          "latency", "$context.responseLatency",
          "integrationLatency", "$context.integrationLatency",
          "integrationStatus", "$context.integrationStatus",
          "integrationError", "$context.integrationErrorMessage",
          "error", "$context.error.message",
          "authorizerError", "$context.authorizer.error");

  /** The group whose function answers the catch-all {@code $default} route. */
  static final dev.puddle.contract.FunctionGroup CATCH_ALL_GROUP =
      dev.puddle.contract.FunctionGroup.READ;

  private final HttpApi api;
  private final HttpStage stage;

  CatalogHttpApi(Construct scope, String id, Settings settings) {
    super(scope, id);
    api =
        HttpApi.Builder.create(this, "Api")
            .description("Puddle: the Iceberg REST catalog")
            .createDefaultStage(false)
            .build();
    LogGroup accessLogs =
        LogGroup.Builder.create(this, "AccessLogs")
            .retention(Retention.days(settings.logRetentionDays()))
            .build();
    IAccessLogDestination destination = new LogGroupLogDestination(accessLogs);
    stage =
        HttpStage.Builder.create(this, "DefaultStage")
            .httpApi(api)
            .stageName("$default")
            .autoDeploy(true)
            .throttle(
                ThrottleSettings.builder()
                    .rateLimit(settings.throttleRateLimit())
                    .burstLimit(settings.throttleBurstLimit())
                    .build())
            .accessLogSettings(
                new IAccessLogSettings() {
                  @Override
                  public IAccessLogDestination getDestination() {
                    return destination;
                  }

                  @Override
                  public AccessLogFormat getFormat() {
                    return AccessLogFormat.custom(json(ACCESS_LOG_FIELDS));
                  }
                })
            .build();
  }

  /**
   * Adds the routes of the route table, each to its group's function. Every route of a group served
   * over HTTP gets one, so routes added to the table appear here without a change.
   */
  void addRoutes(Map<Group, PuddleFunction> functions, Settings settings) {
    IHttpRouteAuthorizer authorizer =
        settings.externalIdp() == null
            ? null
            : HttpJwtAuthorizer.Builder.create("ExternalIdp", settings.externalIdp().issuer())
                .jwtAudience(settings.externalIdp().audiences())
                .build();
    Map<Group, HttpLambdaIntegration> integrations = new LinkedHashMap<>();
    for (Route route : httpRoutes()) {
      Group group = Group.serving(route.group());
      HttpLambdaIntegration integration =
          integrations.computeIfAbsent(
              group,
              g ->
                  HttpLambdaIntegration.Builder.create(
                          g.id() + "-integration", functions.get(g).target())
                      .payloadFormatVersion(PayloadFormatVersion.VERSION_2_0)
                      // one permission for the API, not one per route: the policy stays small
                      .scopePermissionToRoute(false)
                      .build());
      HttpRoute.Builder builder =
          HttpRoute.Builder.create(this, "Route-" + route.operationId())
              .httpApi(api)
              .routeKey(HttpRouteKey.with(route.path(), HttpMethod.valueOf(route.method())))
              .integration(integration);
      if (authorizer != null && route.requiresAuthentication()) {
        builder.authorizer(authorizer);
      }
      builder.build();
    }
    // the catch-all: a path no route has (404) or a method a path does not have (405, with
    // Allow) is answered by the read function as an Iceberg error, from the route table alone,
    // touching no database; without it API Gateway answers {"message":"Not Found"} itself
    Group fallback = Group.serving(CATCH_ALL_GROUP);
    HttpRoute.Builder.create(this, "Route-default")
        .httpApi(api)
        .routeKey(HttpRouteKey.DEFAULT)
        .integration(integrations.get(fallback))
        .build();
  }

  HttpApi api() {
    return api;
  }

  HttpStage stage() {
    return stage;
  }

  /** The API's URL, which is also the issuer of Puddle's own tokens. */
  String url() {
    return api.getApiEndpoint();
  }

  private static String json(Map<String, String> fields) {
    StringBuilder json = new StringBuilder("{");
    fields.forEach(
        (name, value) -> {
          if (json.length() > 1) {
            json.append(',');
          }
          json.append('"').append(name).append("\":\"").append(value).append('"');
        });
    return json.append('}').toString();
  }

  private static Map<String, String> orderedMap(String... pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return map;
  }

  /** The entries of the route table the HTTP API serves. */
  static List<Route> httpRoutes() {
    return java.util.Arrays.stream(Route.values())
        .filter(r -> HTTP_GROUPS.contains(r.group()))
        .toList();
  }
}
