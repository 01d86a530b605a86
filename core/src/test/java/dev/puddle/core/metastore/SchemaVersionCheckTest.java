package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.metastore.dataapi.DataApiConnections;
import java.net.URI;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.services.rdsdata.RdsDataClient;

class SchemaVersionCheckTest {
  /**
   * Every function reaches the metastore through the check, so a Data API metastore behind it must
   * still begin its transactions with the deadline's statement timeout, and still look at rows
   * sparingly; no call is made to know it.
   */
  @Test
  void theCheckKeepsTheTraitsOfTheConnectionsItWraps() {
    try (RdsDataClient client =
        DataApiConnections.client(
            "us-east-1", URI.create("http://127.0.0.1:9"), AnonymousCredentialsProvider.create())) {
      DataApiConnections dataApi =
          new DataApiConnections(
              client,
              new DataApiConnections.Target(
                  "arn:aws:rds:us-east-1:123456789012:cluster:puddle",
                  "arn:aws:secretsmanager:us-east-1:123456789012:secret:puddle",
                  "puddle"),
              DataApiConnections.Resume.DEFAULT);
      SchemaVersionCheck checked = new SchemaVersionCheck(dataApi);

      assertThat(checked.timesOutTransactionsOnServer()).isTrue();
      assertThat(checked.billsEachStatement()).isTrue();
    }
  }
}
