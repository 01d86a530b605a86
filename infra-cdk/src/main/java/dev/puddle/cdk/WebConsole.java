package dev.puddle.cdk;

import dev.puddle.contract.ConsoleSite;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.services.cloudfront.AllowedMethods;
import software.amazon.awscdk.services.cloudfront.BehaviorOptions;
import software.amazon.awscdk.services.cloudfront.CachePolicy;
import software.amazon.awscdk.services.cloudfront.Distribution;
import software.amazon.awscdk.services.cloudfront.Function;
import software.amazon.awscdk.services.cloudfront.FunctionAssociation;
import software.amazon.awscdk.services.cloudfront.FunctionCode;
import software.amazon.awscdk.services.cloudfront.FunctionEventType;
import software.amazon.awscdk.services.cloudfront.FunctionRuntime;
import software.amazon.awscdk.services.cloudfront.HeadersFrameOption;
import software.amazon.awscdk.services.cloudfront.HeadersReferrerPolicy;
import software.amazon.awscdk.services.cloudfront.HttpVersion;
import software.amazon.awscdk.services.cloudfront.OriginRequestPolicy;
import software.amazon.awscdk.services.cloudfront.PriceClass;
import software.amazon.awscdk.services.cloudfront.ResponseCustomHeader;
import software.amazon.awscdk.services.cloudfront.ResponseCustomHeadersBehavior;
import software.amazon.awscdk.services.cloudfront.ResponseHeadersContentSecurityPolicy;
import software.amazon.awscdk.services.cloudfront.ResponseHeadersContentTypeOptions;
import software.amazon.awscdk.services.cloudfront.ResponseHeadersFrameOptions;
import software.amazon.awscdk.services.cloudfront.ResponseHeadersPolicy;
import software.amazon.awscdk.services.cloudfront.ResponseHeadersReferrerPolicy;
import software.amazon.awscdk.services.cloudfront.ResponseHeadersStrictTransportSecurity;
import software.amazon.awscdk.services.cloudfront.ResponseSecurityHeadersBehavior;
import software.amazon.awscdk.services.cloudfront.ViewerProtocolPolicy;
import software.amazon.awscdk.services.cloudfront.origins.HttpOrigin;
import software.amazon.awscdk.services.cloudfront.origins.S3BucketOrigin;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.ObjectOwnership;
import software.amazon.awscdk.services.s3.deployment.BucketDeployment;
import software.amazon.awscdk.services.s3.deployment.Source;
import software.constructs.Construct;

/**
 * The web console on AWS, with no cost while nobody looks: its built files in a private bucket that
 * only this CloudFront distribution reads (origin access control), and the catalog's API behind the
 * same distribution, so the console calls its own origin: the same strict Content-Security-Policy
 * as on the twin ({@code connect-src 'self'}), no CORS, and the bearer token only ever sent to that
 * origin. Engines keep using the API's own endpoint.
 */
final class WebConsole extends Construct {
  /** The API's paths the console calls, forwarded to the HTTP API uncached. */
  static final List<String> API_PATHS = List.of("/v1/*", "/admin/v1/*");

  /**
   * The page at {@code /ui} and {@code /ui/} (its object is {@code ui/index.html}), and the root
   * sent to it: a CloudFront Function, billed per request only.
   */
  static final String INDEX_FUNCTION =
      """
      function handler(event) {
        var request = event.request;
        if (request.uri === '/') {
          return { statusCode: 302, statusDescription: 'Found',
                   headers: { location: { value: '%1$s' } } };
        }
        if (request.uri === '%1$s' || request.uri === '%1$s/') {
          request.uri = '%1$s/%2$s';
        }
        return request;
      }
      """
          .formatted(ConsoleSite.PATH, ConsoleSite.INDEX);

  private final Bucket bucket;
  private final Distribution distribution;

  WebConsole(Construct scope, String id, Settings settings, CatalogHttpApi api) {
    super(scope, id);
    bucket =
        Bucket.Builder.create(this, "Files")
            .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
            .encryption(BucketEncryption.S3_MANAGED)
            .enforceSsl(true)
            .objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)
            .build();
    Function index =
        Function.Builder.create(this, "Index")
            .comment("Puddle console: /ui is its page")
            .runtime(FunctionRuntime.JS_2_0)
            .code(FunctionCode.fromInline(INDEX_FUNCTION))
            .build();
    BehaviorOptions.Builder site =
        BehaviorOptions.builder()
            .origin(S3BucketOrigin.withOriginAccessControl(bucket))
            .viewerProtocolPolicy(ViewerProtocolPolicy.REDIRECT_TO_HTTPS)
            .allowedMethods(AllowedMethods.ALLOW_GET_HEAD)
            .cachePolicy(CachePolicy.CACHING_OPTIMIZED)
            .responseHeadersPolicy(headers())
            .functionAssociations(
                List.of(
                    FunctionAssociation.builder()
                        .function(index)
                        .eventType(FunctionEventType.VIEWER_REQUEST)
                        .build()));
    // the API's host: its endpoint is https://<id>.execute-api.<region>.amazonaws.com
    HttpOrigin catalog = new HttpOrigin(Fn.select(2, Fn.split("/", api.url())));
    BehaviorOptions toApi =
        BehaviorOptions.builder()
            .origin(catalog)
            .viewerProtocolPolicy(ViewerProtocolPolicy.HTTPS_ONLY)
            .allowedMethods(AllowedMethods.ALLOW_ALL)
            // never cached, so every viewer header (Authorization too) goes to the API, but the
            // Host: API Gateway answers only its own name
            .cachePolicy(CachePolicy.CACHING_DISABLED)
            .originRequestPolicy(OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER)
            .build();
    Map<String, BehaviorOptions> apiBehaviors = new LinkedHashMap<>();
    API_PATHS.forEach(path -> apiBehaviors.put(path, toApi));
    distribution =
        Distribution.Builder.create(this, "Distribution")
            .comment("Puddle: the web console and the API it calls")
            .defaultBehavior(site.build())
            .additionalBehaviors(apiBehaviors)
            .priceClass(PriceClass.PRICE_CLASS_100)
            .httpVersion(HttpVersion.HTTP2_AND_3)
            .build();
    // at deploy time only: copies the built files under ui/ and clears the cache of /ui*
    BucketDeployment.Builder.create(this, "Upload")
        .sources(List.of(Source.asset(settings.consoleFiles().toString())))
        .destinationBucket(bucket)
        .destinationKeyPrefix(ConsoleSite.PATH.substring(1) + "/")
        .distribution(distribution)
        .distributionPaths(List.of(ConsoleSite.PATH + "*"))
        .build();
  }

  /** {@link ConsoleSite#securityHeaders()}, as CloudFront's security headers spell them. */
  private ResponseHeadersPolicy headers() {
    Map<String, String> headers = ConsoleSite.securityHeaders();
    return ResponseHeadersPolicy.Builder.create(this, "Headers")
        .comment("Puddle console: the headers the twin sends too")
        .securityHeadersBehavior(
            ResponseSecurityHeadersBehavior.builder()
                .contentSecurityPolicy(
                    ResponseHeadersContentSecurityPolicy.builder()
                        .contentSecurityPolicy(headers.get("Content-Security-Policy"))
                        .override(true)
                        .build())
                .contentTypeOptions(
                    ResponseHeadersContentTypeOptions.builder().override(true).build())
                .frameOptions(
                    ResponseHeadersFrameOptions.builder()
                        .frameOption(HeadersFrameOption.valueOf(headers.get("X-Frame-Options")))
                        .override(true)
                        .build())
                .referrerPolicy(
                    ResponseHeadersReferrerPolicy.builder()
                        .referrerPolicy(HeadersReferrerPolicy.NO_REFERRER)
                        .override(true)
                        .build())
                .strictTransportSecurity(
                    ResponseHeadersStrictTransportSecurity.builder()
                        .accessControlMaxAge(Duration.days(365))
                        .includeSubdomains(true)
                        .override(true)
                        .build())
                .build())
        .customHeadersBehavior(
            ResponseCustomHeadersBehavior.builder()
                .customHeaders(
                    List.of(
                        ResponseCustomHeader.builder()
                            .header("Cross-Origin-Opener-Policy")
                            .value(headers.get("Cross-Origin-Opener-Policy"))
                            .override(true)
                            .build()))
                .build())
        .build();
  }

  /** The console's address: the distribution's domain, at /ui. */
  String url() {
    return "https://" + distribution.getDistributionDomainName() + ConsoleSite.PATH;
  }

  Bucket bucket() {
    return bucket;
  }

  Distribution distribution() {
    return distribution;
  }
}
