package dev.puddle.core.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.puddle.core.api.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.stream.Stream;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CherrypickAncestorCommitException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchIcebergTableException;
import org.apache.iceberg.exceptions.NoSuchIcebergViewException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.apache.iceberg.exceptions.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Protects the error contract Iceberg clients parse: the status each exception maps to (409 only
 * for a change that certainly did not apply, 5xx when a commit's outcome is unknown), {@code type}
 * the exception's simple name, the body shape {@code {"error":{"message","type","code"}}}, and no
 * internal detail in a 500.
 */
class ErrorMapperTest {

  static Stream<Arguments> statuses() {
    return Stream.of(
        Arguments.of(new BadRequestException("bad"), 400),
        Arguments.of(new IllegalArgumentException("bad"), 400),
        Arguments.of(new ValidationException("bad"), 400),
        Arguments.of(new CherrypickAncestorCommitException(1L), 400),
        Arguments.of(new NotAuthorizedException("who"), 401),
        Arguments.of(new ForbiddenException("no"), 403),
        Arguments.of(new NoSuchNamespaceException("none"), 404),
        Arguments.of(new NoSuchTableException("none"), 404),
        Arguments.of(new NoSuchIcebergTableException("none"), 404),
        Arguments.of(new NoSuchViewException("none"), 404),
        Arguments.of(new NoSuchIcebergViewException("none"), 404),
        Arguments.of(new NotFoundException("none"), 404),
        Arguments.of(new UnsupportedOperationException("no"), 406),
        Arguments.of(new AlreadyExistsException("exists"), 409),
        Arguments.of(new NamespaceNotEmptyException("not empty"), 409),
        Arguments.of(new CommitFailedException("lost"), 409),
        Arguments.of(new UnprocessableEntityException("no"), 422),
        Arguments.of(new CommitStateUnknownException(new RuntimeException("timeout")), 500),
        Arguments.of(new ServiceUnavailableException("busy"), 503),
        Arguments.of(new IllegalStateException("bug"), 500),
        Arguments.of(new NullPointerException(), 500),
        Arguments.of(new UncheckedIOException(new IOException("disk")), 500));
  }

  @ParameterizedTest
  @MethodSource("statuses")
  void statusAndTypeFollowTheException(RuntimeException error, int status) {
    Response response = ErrorMapper.toResponse(error);
    JsonNode body = error(response);

    assertThat(response.status()).isEqualTo(status);
    assertThat(response.headers()).containsEntry("content-type", "application/json");
    assertThat(body.get("code").asInt()).isEqualTo(status);
    assertThat(body.get("type").asText()).isEqualTo(error.getClass().getSimpleName());
  }

  @ParameterizedTest
  @MethodSource("statuses")
  void theBodyIsExactlyTheErrorModel(RuntimeException error, int status) {
    JsonNode root = json(ErrorMapper.toResponse(error));

    assertThat(root.fieldNames()).toIterable().containsExactly("error");
    assertThat(root.get("error").fieldNames())
        .toIterable()
        .containsExactlyInAnyOrder("message", "type", "code");
  }

  @Test
  void clientErrorsCarryTheirMessage() {
    JsonNode body =
        error(
            ErrorMapper.toResponse(new NoSuchTableException("Table does not exist: sales.orders")));

    assertThat(body.get("message").asText()).isEqualTo("Table does not exist: sales.orders");
  }

  @Test
  void anErrorWithoutMessageIsNamedByItsType() {
    JsonNode body = error(ErrorMapper.toResponse(new UnsupportedOperationException()));

    assertThat(body.get("message").asText()).isEqualTo("UnsupportedOperationException");
  }

  @Test
  void anInternalErrorHidesItsMessageAndStack() {
    Response response =
        ErrorMapper.toResponse(
            new IllegalStateException("password=hunter2 at jdbc:postgresql://10.0.0.7/catalog"));

    assertThat(error(response).get("message").asText()).isEqualTo("Internal server error");
    assertThat(response.body()).doesNotContain("hunter2", "10.0.0.7", "\tat ", "ErrorMapperTest");
  }

  /** Clients must see why a commit's outcome is unknown, so they check before retrying. */
  @Test
  void anUnknownCommitStateKeepsItsMessage() {
    JsonNode body =
        error(
            ErrorMapper.toResponse(
                new CommitStateUnknownException(new RuntimeException("connection reset"))));

    assertThat(body.get("message").asText()).contains("connection reset");
  }

  @Test
  void unavailabilityKeepsItsMessage() {
    JsonNode body =
        error(ErrorMapper.toResponse(new ServiceUnavailableException("Metastore busy")));

    assertThat(body.get("message").asText()).isEqualTo("Metastore busy");
  }

  @Test
  void explicitErrorsHaveTheSameShape() {
    Response response = ErrorMapper.error(405, "MethodNotAllowedException", "Method not allowed");
    JsonNode body = error(response);

    assertThat(response.status()).isEqualTo(405);
    assertThat(body.get("type").asText()).isEqualTo("MethodNotAllowedException");
    assertThat(body.get("code").asInt()).isEqualTo(405);
    assertThat(body.get("message").asText()).isEqualTo("Method not allowed");
  }

  private static JsonNode error(Response response) {
    return json(response).get("error");
  }

  private static JsonNode json(Response response) {
    try {
      return RestJson.mapper().readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
