package dev.puddle.core.signing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.storage.S3Location;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.requests.ImmutableRemoteSignRequest;
import org.junit.jupiter.api.Test;

/**
 * How a request to sign is read on AWS, where the twin's tests cannot go: virtual-hosted and
 * path-style hosts, what each method and query is, and what a table's reach lets through.
 */
class S3RequestTest {
  private static final S3Addressing AWS = S3Addressing.aws();
  private static final TableReach ORDERS =
      TableReach.of(
          TableIdentifier.of("sales", "orders"),
          List.of("s3://lake/sales/orders", "s3://bulk/orders-data"));

  @Test
  void awsHostsNameTheBucketInTheHostOrThePath() {
    assertThat(AWS.address(URI.create("https://lake.s3.eu-west-1.amazonaws.com/sales/orders/x")))
        .contains(new S3Addressing.Address("lake", "sales/orders/x"));
    assertThat(AWS.address(URI.create("https://lake.s3.amazonaws.com/a")))
        .contains(new S3Addressing.Address("lake", "a"));
    assertThat(AWS.address(URI.create("https://s3.eu-west-1.amazonaws.com/lake/a/b")))
        .contains(new S3Addressing.Address("lake", "a/b"));
    assertThat(AWS.address(URI.create("https://lake.s3.dualstack.us-east-1.amazonaws.com/a")))
        .contains(new S3Addressing.Address("lake", "a"));
    // decoded as S3 decodes keys
    assertThat(AWS.address(URI.create("https://lake.s3.amazonaws.com/a%20b%2Bc")))
        .contains(new S3Addressing.Address("lake", "a b+c"));
    assertThat(AWS.address(URI.create("https://lake.s3.evil.com/a"))).isEmpty();
    assertThat(AWS.address(URI.create("http://lake.s3.amazonaws.com/a"))).isEmpty();
    assertThat(AWS.address(URI.create("https://amazonaws.com.evil.com/lake/a"))).isEmpty();
  }

  @Test
  void anS3CompatibleEndpointIsPathStyleAtItsOwnHostAndPort() {
    S3Addressing twin = S3Addressing.pathStyle("http://127.0.0.1:9000");
    assertThat(twin.address(URI.create("http://127.0.0.1:9000/lake/a")))
        .contains(new S3Addressing.Address("lake", "a"));
    assertThat(twin.address(URI.create("http://127.0.0.1:9001/lake/a"))).isEmpty();
    assertThat(twin.address(URI.create("https://127.0.0.1:9000/lake/a"))).isEmpty();
  }

  @Test
  void methodsAndQueriesAreTheOperationsS3FileIoMakes() {
    String object = "https://lake.s3.amazonaws.com/sales/orders/data/a.parquet";
    assertThat(action("GET", object)).isEqualTo(S3Action.GET_OBJECT);
    assertThat(action("HEAD", object)).isEqualTo(S3Action.HEAD_OBJECT);
    assertThat(action("PUT", object)).isEqualTo(S3Action.PUT_OBJECT);
    assertThat(action("PUT", object + "?partNumber=1&uploadId=u")).isEqualTo(S3Action.UPLOAD_PART);
    assertThat(action("POST", object + "?uploads")).isEqualTo(S3Action.CREATE_MULTIPART_UPLOAD);
    assertThat(action("POST", object + "?uploadId=u"))
        .isEqualTo(S3Action.COMPLETE_MULTIPART_UPLOAD);
    assertThat(action("DELETE", object)).isEqualTo(S3Action.DELETE_OBJECT);
    assertThat(action("DELETE", object + "?uploadId=u")).isEqualTo(S3Action.ABORT_MULTIPART_UPLOAD);
    assertThat(action("GET", "https://lake.s3.amazonaws.com/?list-type=2&prefix=sales/orders/"))
        .isEqualTo(S3Action.LIST_OBJECTS);
    assertThat(S3Action.GET_OBJECT.writes()).isFalse();
    assertThat(S3Action.DELETE_OBJECTS.writes()).isTrue();

    assertThatThrownBy(() -> action("PUT", object + "?tagging"))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> action("GET", object + "?acl")).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> action("PATCH", object)).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> action("GET", object + "?versionId=1&versionId=2"))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> action("DELETE", "https://lake.s3.amazonaws.com/"))
        .isInstanceOf(ForbiddenException.class);
  }

  @Test
  void theReachLetsThroughTheTablesLocationsOnly() {
    ORDERS.check(request("GET", "https://lake.s3.amazonaws.com/sales/orders/data/a", null));
    ORDERS.check(request("PUT", "https://bulk.s3.amazonaws.com/orders-data/b", null));
    ORDERS.check(
        request(
            "GET", "https://lake.s3.amazonaws.com/?list-type=2&prefix=sales/orders/data", null));
    for (String uri :
        List.of(
            "https://lake.s3.amazonaws.com/sales/orders_v2/data/a", // a sibling's prefix
            "https://lake.s3.amazonaws.com/sales/orders", // the folder itself
            "https://other.s3.amazonaws.com/sales/orders/data/a",
            "https://lake.s3.amazonaws.com/?list-type=2&prefix=sales/orders")) {
      assertThatThrownBy(() -> ORDERS.check(request("GET", uri, null)))
          .as(uri)
          .isInstanceOf(ForbiddenException.class)
          .hasMessageContaining("outside the locations of table sales.orders");
    }
    assertThatThrownBy(
            () -> request("GET", "https://lake.s3.amazonaws.com/sales/orders/../refunds/a", null))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining(". or .. segments");
  }

  @Test
  void deleteObjectsReachesEveryKeyOfItsBody() {
    String uri = "https://lake.s3.amazonaws.com/?delete";
    String body =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
            + "<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
            + "<Object><Key>sales/orders/data/a</Key></Object>"
            + "<Object><Key>sales/refunds/data/b</Key></Object><Quiet>true</Quiet></Delete>";
    S3Request request = request("POST", uri, body);
    assertThat(request.action()).isEqualTo(S3Action.DELETE_OBJECTS);
    assertThat(request.reaches())
        .containsExactly(
            new S3Location("lake", "sales/orders/data/a"),
            new S3Location("lake", "sales/refunds/data/b"));
    assertThatThrownBy(() -> ORDERS.check(request)).isInstanceOf(ForbiddenException.class);

    assertThatThrownBy(() -> request("POST", uri, null)).isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> request("POST", uri, "<Delete/>"))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(
            () ->
                request(
                    "POST",
                    uri,
                    "<!DOCTYPE d [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><Delete>"
                        + "<Object><Key>&x;</Key></Object></Delete>"))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void onlyS3IsSignedAndCopiesAndAclsAreNot() {
    String object = "https://lake.s3.amazonaws.com/sales/orders/data/a";
    assertThatThrownBy(
            () ->
                S3Request.of(
                    sign("GET", object, null, Map.of()).withProvider("gcs"), S3Addressing.aws()))
        .isInstanceOf(BadRequestException.class);
    for (String header : List.of("x-amz-copy-source", "X-Amz-Acl", "x-amz-grant-read")) {
      assertThatThrownBy(
              () ->
                  S3Request.of(
                      sign("PUT", object, null, Map.of(header, List.of("v"))), S3Addressing.aws()))
          .as(header)
          .isInstanceOf(ForbiddenException.class);
    }
  }

  private static S3Action action(String method, String uri) {
    return request(method, uri, null).action();
  }

  private static S3Request request(String method, String uri, String body) {
    return S3Request.of(sign(method, uri, body, Map.of()), AWS);
  }

  private static ImmutableRemoteSignRequest sign(
      String method, String uri, String body, Map<String, List<String>> headers) {
    return ImmutableRemoteSignRequest.builder()
        .region("us-east-1")
        .method(method)
        .uri(URI.create(uri))
        .headers(headers)
        .properties(Map.of())
        .body(body)
        .provider("s3")
        .build();
  }
}
