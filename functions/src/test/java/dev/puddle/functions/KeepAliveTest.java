package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.FunctionGroup;
import dev.puddle.core.auth.RootCaller;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.core.storage.Storage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The keep-alive schedule invokes each SnapStart alias every few days with an EventBridge scheduled
 * event. The invocation must be cheap and harmless: no connection to the metastore, no request line
 * (so no metric, no 404 counted as a client error), and no failed invocation.
 */
class KeepAliveTest {
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final AtomicInteger connections = new AtomicInteger();
  private Database database;
  private Storage storage;
  private CatalogFunction function;

  @BeforeEach
  void setUp() {
    database =
        new Database(
            () -> {
              connections.incrementAndGet();
              throw new SQLException("connection refused", "08001");
            },
            1);
    storage = Storage.s3Compatible("http://127.0.0.1:9", "us-east-1", "key", "secret");
    function =
        new CatalogFunction(
            CatalogApi.builder(new CatalogApi.Settings("acme", "wh"), database, storage)
                .authenticator(RootCaller.of("acme"))
                .build(),
            new CatalogFunction.Options(
                EnumSet.of(FunctionGroup.WRITE),
                "acme",
                Duration.ofSeconds(30),
                Duration.ofSeconds(2),
                1024),
            new RequestLog("PuddleTest", new PrintStream(out, true, StandardCharsets.UTF_8)));
  }

  @AfterEach
  void tearDown() {
    storage.close();
  }

  @Test
  void theScheduledEventIsAnsweredWithoutTheMetastoreOrARequestLine() throws IOException {
    HttpApiResponse response = function.handle(sample("scheduled/keep-alive.json"), null);

    assertThat(response.statusCode()).isEqualTo(204);
    assertThat(connections).hasValue(0);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void anApiGatewayEventStillRunsAndIsLogged() throws IOException {
    HttpApiResponse response = function.handle(sample("createNamespace.json"), null);

    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(connections).hasPositiveValue();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"operation\":\"createNamespace\"");
  }

  private static HttpApiEvent sample(String name) throws IOException {
    return JSON.readValue(
        Path.of(System.getProperty("puddle.events.dir", "../events"), name).toFile(),
        HttpApiEvent.class);
  }
}
