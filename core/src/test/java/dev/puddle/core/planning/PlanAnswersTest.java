package dev.puddle.core.planning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.metastore.Warehouse;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

class PlanAnswersTest {
  private static final Warehouse SALES =
      new Warehouse(1, "acme", "sales", "s3://lake/sales", Map.of());
  private static final TableIdentifier ORDERS = TableIdentifier.of("db", "orders");
  private static final PlanAnswers.Answer ALL = new PlanAnswers.Answer("{\"all\":1}", new byte[2]);
  private static final PlanAnswers.Answer SOME =
      new PlanAnswers.Answer("{\"some\":1}", new byte[2]);

  @Test
  void anAnswerIsGivenOnlyForItsVersionRequestAndPageSize() {
    PlanAnswers answers = new PlanAnswers(1000);
    answers.put(SALES, ORDERS, "1.json", "{}", 100, ALL);

    assertThat(answers.get(SALES, ORDERS, "1.json", "{}", 100)).contains(ALL);
    assertThat(answers.get(SALES, ORDERS, "2.json", "{}", 100)).as("another version").isEmpty();
    assertThat(answers.get(SALES, ORDERS, "1.json", "{\"select\":[\"id\"]}", 100))
        .as("another request")
        .isEmpty();
    assertThat(answers.get(SALES, ORDERS, "1.json", "{}", 2)).as("other pages").isEmpty();
    assertThat(answers.get(SALES, TableIdentifier.of("db", "items"), "1.json", "{}", 100))
        .as("another table")
        .isEmpty();
  }

  @Test
  void answersOfOneVersionAreKeptTogetherAndANewVersionDropsThem() {
    PlanAnswers answers = new PlanAnswers(1000);
    answers.put(SALES, ORDERS, "1.json", "{}", 100, ALL);
    answers.put(SALES, ORDERS, "1.json", "{\"select\":[\"id\"]}", 100, SOME);

    assertThat(answers.get(SALES, ORDERS, "1.json", "{}", 100)).contains(ALL);
    assertThat(answers.get(SALES, ORDERS, "1.json", "{\"select\":[\"id\"]}", 100)).contains(SOME);

    answers.put(SALES, ORDERS, "2.json", "{}", 100, SOME);

    assertThat(answers.get(SALES, ORDERS, "2.json", "{}", 100)).contains(SOME);
    assertThat(answers.get(SALES, ORDERS, "1.json", "{}", 100)).isEmpty();
  }

  @Test
  void aVersionKeepsItsLatestAnswersOnly() {
    PlanAnswers answers = new PlanAnswers(1000);
    for (int i = 0; i <= PlanAnswers.PER_VERSION; i++) {
      answers.put(SALES, ORDERS, "1.json", "{\"n\":" + i + "}", 100, ALL);
    }

    assertThat(answers.get(SALES, ORDERS, "1.json", "{\"n\":0}", 100)).as("the oldest").isEmpty();
    for (int i = 1; i <= PlanAnswers.PER_VERSION; i++) {
      assertThat(answers.get(SALES, ORDERS, "1.json", "{\"n\":" + i + "}", 100)).contains(ALL);
    }
  }

  @Test
  void answersHeavierThanTheBoundAreNotKept() {
    PlanAnswers answers = new PlanAnswers(10);
    answers.put(SALES, ORDERS, "1.json", "{}", 100, ALL);

    assertThat(answers.get(SALES, ORDERS, "1.json", "{}", 100)).isEmpty();
  }
}
