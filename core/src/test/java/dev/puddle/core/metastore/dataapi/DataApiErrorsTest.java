package dev.puddle.core.metastore.dataapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.rdsdata.model.BadRequestException;
import software.amazon.awssdk.services.rdsdata.model.DatabaseUnavailableException;
import software.amazon.awssdk.services.rdsdata.model.StatementTimeoutException;
import software.amazon.awssdk.services.rdsdata.model.TransactionNotFoundException;

class DataApiErrorsTest {

  @Test
  void theSqlStateComesFromTheMessageTheDataApiPassesOn() {
    SQLException e =
        DataApiErrors.translate(
            badRequest(
                "ERROR: duplicate key value violates unique constraint \"catalog_object_pkey\"\n"
                    + "  Detail: Key (id)=(1) already exists.; SQLState: 23505"));
    assertThat(e.getSQLState()).isEqualTo("23505");
    assertThat(e.getMessage()).startsWith("ERROR: duplicate key value");
    assertThat(DataApiErrors.sqlState("ERROR: permission denied for table x; SQLState: 42501"))
        .isEqualTo("42501");
  }

  @Test
  void withoutAStatePostgresMessagesAreRecognised() {
    assertThat(
            DataApiErrors.sqlState(
                "ERROR: insert or update on table \"child\" violates foreign"
                    + " key constraint \"child_parent_id_fkey\""))
        .isEqualTo("23503");
    assertThat(DataApiErrors.sqlState("ERROR: duplicate key value violates unique constraint"))
        .isEqualTo("23505");
    assertThat(DataApiErrors.sqlState("Some other problem")).isNull();
  }

  @Test
  void serviceFailuresAreConnectionFailures() {
    SQLException unavailable =
        DataApiErrors.translate(DatabaseUnavailableException.builder().build());
    assertThat((Object) unavailable).isInstanceOf(SQLTransientConnectionException.class);
    assertThat(unavailable.getSQLState()).isEqualTo("08006");
    assertThat((Object) DataApiErrors.translate(SdkClientException.create("connection reset")))
        .isInstanceOf(SQLTransientConnectionException.class);
    SQLException lost = DataApiErrors.translate(TransactionNotFoundException.builder().build());
    assertThat((Object) lost).isInstanceOf(SQLNonTransientConnectionException.class);
    assertThat(lost.getSQLState()).isEqualTo("08003");
    SQLException timeout = DataApiErrors.translate(StatementTimeoutException.builder().build());
    assertThat((Object) timeout).isInstanceOf(SQLTimeoutException.class);
    assertThat(timeout.getSQLState()).isEqualTo("57014");
  }

  @Test
  void jsonSizesMatchWhatJacksonWrites() throws Exception {
    ObjectMapper json = new ObjectMapper();
    for (String value :
        new String[] {"", "plain", "q\"b\\s", "\n\t\r\b\f", "\u0001\u001f", "é漢😀"}) {
      assertThat(JsonText.encodedLength(value))
          .as(value)
          .isEqualTo(json.writeValueAsString(value).getBytes(StandardCharsets.UTF_8).length);
    }
  }

  private static BadRequestException badRequest(String message) {
    return BadRequestException.builder()
        .message(message)
        .awsErrorDetails(
            AwsErrorDetails.builder()
                .errorCode("BadRequestException")
                .errorMessage(message)
                .build())
        .build();
  }
}
