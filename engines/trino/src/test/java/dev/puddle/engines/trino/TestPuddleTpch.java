package dev.puddle.engines.trino;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import com.google.common.collect.HashMultiset;
import com.google.common.collect.Multiset;
import dev.puddle.engines.twin.PuddleTwin;
import io.trino.Session;
import io.trino.plugin.iceberg.IcebergQueryRunner;
import io.trino.plugin.iceberg.SchemaInitializer;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TPC-H at scale factor 0.01 through Puddle: Trino creates every table of {@code tpch.tiny} in
 * Puddle by CTAS, then runs the 22 TPC-H queries (as the {@code io.trino.tpch:tpch} jar ships
 * them) against those Iceberg tables and against {@code tpch.tiny} itself, and expects the same
 * rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestPuddleTpch extends AbstractTestQueryFramework {
  private static final String WAREHOUSE = "trino_tpch";
  /** The TPC-H generator with the standard column names (l_orderkey…) the queries use. */
  private static final String REFERENCE = "tpch_standard";
  /** Relative difference allowed between two sums of doubles added up in another order. */
  private static final double DOUBLE_TOLERANCE = 1e-9;
  private static final Pattern VIEW =
      Pattern.compile("^CREATE OR REPLACE VIEW\\s+(\\w+)\\s+AS", Pattern.CASE_INSENSITIVE);

  @Override
  protected QueryRunner createQueryRunner() throws Exception {
    PuddleTwin twin = PuddleTwin.shared();
    Management.signIn(twin, twin.rootCredential()).createWarehouse(WAREHOUSE);
    QueryRunner queryRunner =
        IcebergQueryRunner.builder()
            // one node: the 2-core machine runs each query faster without exchanges
            .setWorkerCount(0)
            .setIcebergProperties(
                PuddleCatalog.withStorageKeys(twin, WAREHOUSE, twin.rootCredential()))
            .addIcebergProperty("fs.hadoop.enabled", "false")
            // no schema location: Puddle reports the one its tables get
            .setSchemaInitializer(SchemaInitializer.builder().withSchemaName("tpch").build())
            .build();
    queryRunner.createCatalog(REFERENCE, "tpch", Map.of("tpch.column-naming", "STANDARD"));
    return queryRunner;
  }

  /** Every table of the generator, created in Puddle by CTAS (which reports its row count). */
  @BeforeAll
  void createTables() {
    for (TpchTable<?> table : TpchTable.getTables()) {
      String name = table.getTableName();
      assertUpdate(
          "CREATE TABLE " + name + " AS SELECT * FROM " + REFERENCE + ".tiny." + name,
          (long) computeScalar("SELECT count(*) FROM " + REFERENCE + ".tiny." + name));
    }
  }

  @Test
  void everyTableHoldsTheGeneratorsRows() {
    for (TpchTable<?> table : TpchTable.getTables()) {
      String name = table.getTableName();
      // multisets: AssertJ's any-order comparison of 60,000 rows takes minutes
      assertThat(rows("SELECT * FROM " + name))
          .as(name)
          .isEqualTo(rows("SELECT * FROM " + REFERENCE + ".tiny." + name));
    }
  }

  private Multiset<MaterializedRow> rows(String sql) {
    return HashMultiset.create(computeActual(sql).getMaterializedRows());
  }

  static List<Integer> queries() {
    return IntStream.rangeClosed(1, 22).boxed().toList();
  }

  @ParameterizedTest(name = "q{0}")
  @MethodSource("queries")
  void queryAnswersAsOnTheGenerator(int query) {
    List<String> statements = statements(query);
    String select = statements.getLast();
    // q15 defines a view first: Puddle stores it; the generator's side inlines it
    for (String statement : statements.subList(0, statements.size() - 1)) {
      getQueryRunner().execute(statement);
    }
    MaterializedResult actual = computeActual(select);
    MaterializedResult expected = computeActual(reference(), inlineViews(statements));
    assertThat(actual.getRowCount()).as("q%d rows", query).isPositive();
    assertSameRows(query, actual.getMaterializedRows(), expected.getMaterializedRows());
  }

  private Session reference() {
    return Session.builder(getSession()).setCatalog(REFERENCE).setSchema("tiny").build();
  }

  /** The statements of query {@code n}, without its header comment and semicolons. */
  private static List<String> statements(int n) {
    String path = "/io/trino/tpch/queries/q" + n + ".sql";
    try (InputStream in = TestPuddleTpch.class.getResourceAsStream(path)) {
      String text = new String(in.readAllBytes(), UTF_8);
      String body =
          text.lines().filter(line -> !line.startsWith("--")).collect(Collectors.joining("\n"));
      return Arrays.stream(body.split(";")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The last statement, each {@code CREATE OR REPLACE VIEW v AS q} before it as a WITH. */
  private static String inlineViews(List<String> statements) {
    List<String> views = statements.subList(0, statements.size() - 1);
    if (views.isEmpty()) {
      return statements.getLast();
    }
    String with =
        views.stream()
            .map(view -> VIEW.matcher(view).replaceFirst("$1 AS ("))
            .map(view -> view + ")")
            .collect(Collectors.joining(", ", "WITH ", " "));
    return with + statements.getLast();
  }

  private static void assertSameRows(
      int query, List<MaterializedRow> actual, List<MaterializedRow> expected) {
    assertThat(actual).as("q%d row count", query).hasSameSizeAs(expected);
    for (int row = 0; row < actual.size(); row++) {
      List<Object> actualFields = actual.get(row).getFields();
      List<Object> expectedFields = expected.get(row).getFields();
      assertThat(actualFields).as("q%d row %d", query, row).hasSameSizeAs(expectedFields);
      for (int field = 0; field < actualFields.size(); field++) {
        Object a = actualFields.get(field);
        Object e = expectedFields.get(field);
        if (a instanceof Double x && e instanceof Double y) {
          assertThat(x)
              .as("q%d row %d field %d", query, row, field)
              .isCloseTo(y, offset(Math.abs(y) * DOUBLE_TOLERANCE));
        } else {
          assertThat(a).as("q%d row %d field %d", query, row, field).isEqualTo(e);
        }
      }
    }
  }
}
