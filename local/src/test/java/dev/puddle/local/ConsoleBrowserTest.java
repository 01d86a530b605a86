package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.auth.OAuth2Properties;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.View;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;

/**
 * The web console in a real headless Chromium against the twin: signed in as root with its client
 * credentials, it shows what Iceberg's own Java client made, and what it changes through the
 * management API takes effect for engines. Each page's screenshot goes to target/screenshots.
 */
class ConsoleBrowserTest {
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "ts", Types.TimestampType.withZone()),
          Types.NestedField.optional(
              3,
              "address",
              Types.StructType.of(
                  Types.NestedField.optional(4, "city", Types.StringType.get()),
                  Types.NestedField.optional(5, "zip", Types.StringType.get()))),
          Types.NestedField.optional(
              6, "tags", Types.ListType.ofOptional(7, Types.StringType.get())),
          Types.NestedField.optional(
              8,
              "attributes",
              Types.MapType.ofOptional(9, 10, Types.StringType.get(), Types.StringType.get())));

  private static Browser browser;
  private String warehouse;
  private RESTCatalog root;

  @BeforeAll
  static void startBrowser() {
    browser = Browser.start();
  }

  @AfterAll
  static void stopBrowser() {
    browser.close();
  }

  @BeforeEach
  void setUp() {
    warehouse = TestTwin.newWarehouse("console");
    root = TestTwin.restCatalog(warehouse, Map.of());
    // a new tab session each time: nothing kept from the test before
    browser.open(TestTwin.get().uri() + "/ui");
    browser.driver().executeScript("sessionStorage.clear()");
    browser.open(TestTwin.get().uri() + "/ui#/");
  }

  @AfterEach
  void tearDown() throws Exception {
    root.close();
    // the page ran under its Content-Security-Policy without being refused anything
    assertThat(browser.consoleMessages()).noneMatch(m -> m.contains("Content Security Policy"));
  }

  @Test
  void signsInAndShowsATableWithItsSnapshotsAfterTwoAppends() {
    Namespace sales = Namespace.of("sales");
    root.createNamespace(sales);
    Table table =
        root.buildTable(TableIdentifier.of(sales, "orders"), SCHEMA)
            .withPartitionSpec(PartitionSpec.builderFor(SCHEMA).day("ts").bucket("id", 16).build())
            .withSortOrder(SortOrder.builderFor(SCHEMA).asc("id").build())
            .withProperty("owner", "analytics")
            .create();
    table.newAppend().appendFile(dataFile(table, "a")).commit();
    table.newAppend().appendFile(dataFile(table, "b")).commit();
    table.refresh();

    browser.screenshot("sign-in");
    signInAsRoot();
    browser.shown(By.cssSelector("[data-testid=warehouses]"));
    browser.screenshot("warehouses");
    browser.shown(By.linkText(warehouse)).click();
    openNamespace("sales");
    browser.shown(By.linkText("orders"));
    browser.screenshot("namespaces");
    browser.shown(By.linkText("orders")).click();

    browser.shown(By.cssSelector("[data-testid=table-page]"));
    List<WebElement> snapshots =
        browser.waitForCount(By.cssSelector("[data-testid=snapshots] > li"), 2);
    assertThat(snapshots)
        .extracting(s -> s.findElement(By.className("operation")).getText())
        .containsOnly("APPEND"); // the stylesheet shows operations in capitals
    assertThat(snapshots)
        .extracting(s -> Long.parseLong(s.getAttribute("data-snapshot-id")))
        .containsExactlyInAnyOrderElementsOf(
            StreamSupport.stream(table.snapshots().spliterator(), false)
                .map(Snapshot::snapshotId)
                .toList());
    assertThat(snapshots.get(0).getText())
        .contains("added-data-files")
        .contains(String.valueOf(table.currentSnapshot().parentId()));

    // every field, nested ones too, with the id and type the catalog gave it
    Map<Integer, Types.NestedField> fields = TypeUtil.indexById(table.schema().asStruct());
    List<WebElement> rows =
        browser.driver().findElements(By.cssSelector("[data-testid=schema] tbody tr"));
    Map<Integer, String> shown =
        rows.stream()
            .collect(
                Collectors.toMap(
                    row -> Integer.parseInt(row.findElement(By.cssSelector("td")).getText()),
                    WebElement::getText));
    assertThat(shown.keySet()).isEqualTo(fields.keySet());
    int tags = table.schema().findField("tags").fieldId();
    assertThat(shown.get(tags)).contains("tags").contains("list<string>");
    int city = table.schema().findField("address.city").fieldId();
    assertThat(shown.get(city)).contains("city").contains("string");

    assertThat(text("[data-testid=partition-spec]")).contains("day").contains("bucket[16]");
    assertThat(text("[data-testid=sort-order]")).contains("id").contains("asc");
    assertThat(text("[data-testid=properties]")).contains("owner").contains("analytics");
    assertThat(text("[data-testid=refs]"))
        .contains("main")
        .contains(String.valueOf(table.currentSnapshot().snapshotId()));
    assertThat(browser.driver().findElements(By.cssSelector("[data-testid=metadata-log] tbody tr")))
        .hasSize(((HasTableOperations) table).operations().current().previousFiles().size());
    browser.screenshot("table");
  }

  @Test
  void aPrincipalAndAGrantMadeInTheConsoleLetThatPrincipalLoadTheTable() {
    Namespace sales = Namespace.of("sales");
    root.createNamespace(sales);
    TableIdentifier orders = TableIdentifier.of(sales, "orders");
    root.createTable(orders, SCHEMA);
    int n = NAMES.incrementAndGet();
    String principal = "console-reader-" + n;
    String principalRole = "console_readers_" + n;
    String catalogRole = "sales_reader_" + n;

    signInAsRoot();
    browser.shown(By.cssSelector("[data-testid=warehouses]"));
    browser.open(TestTwin.get().uri() + "/ui#/access/" + warehouse);
    browser.shown(By.cssSelector("[data-testid=access-page]"));
    By notice = By.cssSelector("[data-testid=notice]");

    browser.submit(By.cssSelector("[data-testid=create-principal]"), "name", principal);
    String clientId = browser.shown(By.cssSelector("[data-testid=client-id]")).getText();
    String clientSecret = browser.shown(By.cssSelector("[data-testid=client-secret]")).getText();
    browser.waitForText(By.cssSelector("[data-testid=principals]"), principal);
    browser.submit(By.cssSelector("[data-testid=create-principal-role]"), "name", principalRole);
    browser.waitForText(notice, "Created principal role " + principalRole);
    browser.submit(
        By.cssSelector("[data-testid=assign-principal-role]"),
        "principal",
        principal,
        "principalRole",
        principalRole);
    browser.waitForText(notice, "Gave principal role " + principalRole + " to " + principal);
    browser.submit(By.cssSelector("[data-testid=create-catalog-role]"), "name", catalogRole);
    browser.waitForText(notice, "Created catalog role " + catalogRole);
    browser.submit(
        By.cssSelector("[data-testid=assign-catalog-role]"),
        "principalRole",
        principalRole,
        "catalogRole",
        catalogRole);
    browser.waitForText(notice, "Gave catalog role " + catalogRole);

    Map<String, String> asReader =
        Map.of(
            OAuth2Properties.CREDENTIAL,
            clientId + ":" + clientSecret,
            OAuth2Properties.SCOPE,
            "PRINCIPAL_ROLE:ALL");
    try (RESTCatalog reader = TestTwin.client(TestTwin.get().uri(), warehouse, asReader)) {
      assertThatThrownBy(() -> reader.loadTable(orders)).isInstanceOf(ForbiddenException.class);

      browser.submit(
          By.cssSelector("[data-testid=grant]"),
          "privilege",
          "TABLE_READ_DATA",
          "type",
          "namespace",
          "namespace",
          "sales",
          "catalogRole",
          catalogRole);
      browser.waitForText(notice, "Granted TABLE_READ_DATA on namespace sales to " + catalogRole);
      browser.waitForText(By.cssSelector("[data-testid=grants]"), "namespace sales");
      browser.screenshot("access");

      assertThat(reader.loadTable(orders).schema().asStruct())
          .isEqualTo(root.loadTable(orders).schema().asStruct());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void namesAreShownAsTextNeverRunAsMarkup() {
    String namespaceName = "\"><svg onload=alert(2)>";
    String tableName = "<img src=x onerror=alert(1)>";
    Namespace namespace = Namespace.of(namespaceName);
    root.createNamespace(namespace);
    root.buildTable(TableIdentifier.of(namespace, tableName), SCHEMA)
        .withProperty("comment", "<script>alert(3)</script>")
        .create();

    signInAsRoot();
    browser.shown(By.linkText(warehouse)).click();
    openNamespace(namespaceName);
    browser.shown(By.linkText(tableName)).click();
    assertThat(browser.shown(By.cssSelector("[data-testid=table-name]")).getText())
        .isEqualTo(tableName);
    assertThat(text("[data-testid=properties]")).contains("<script>alert(3)</script>");
    assertThat(browser.driver().findElements(By.cssSelector("img, svg, main script"))).isEmpty();
    assertThatThrownBy(() -> browser.driver().switchTo().alert())
        .isInstanceOf(NoAlertPresentException.class);
    browser.screenshot("names-as-text");
  }

  @Test
  void showsAViewsVersionsWithTheirSql() {
    Namespace sales = Namespace.of("sales");
    root.createNamespace(sales);
    TableIdentifier daily = TableIdentifier.of(sales, "daily");
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    root.buildView(daily)
        .withSchema(schema)
        .withDefaultNamespace(sales)
        .withQuery("spark", "SELECT id FROM sales.orders")
        .create();
    View view =
        root.buildView(daily)
            .withSchema(schema)
            .withDefaultNamespace(sales)
            .withQuery("spark", "SELECT id FROM sales.orders WHERE id > 0")
            .replace();

    signInAsRoot();
    browser.shown(By.linkText(warehouse)).click();
    openNamespace("sales");
    browser.shown(By.linkText("daily")).click();
    browser.shown(By.cssSelector("[data-testid=view-page]"));
    List<WebElement> versions =
        browser.waitForCount(By.cssSelector("[data-testid=versions] > li"), 2);
    assertThat(versions.get(0).getText())
        .contains("version " + view.currentVersion().versionId())
        .contains("SELECT id FROM sales.orders WHERE id > 0");
    assertThat(versions.get(1).getText()).contains("SELECT id FROM sales.orders");
    browser.screenshot("view");
  }

  @Test
  void showsTheWarehousesPurgeJobs() {
    Namespace sales = Namespace.of("sales");
    root.createNamespace(sales);
    TableIdentifier orders = TableIdentifier.of(sales, "orders");
    root.createTable(orders, SCHEMA);
    root.dropTable(orders, true);

    signInAsRoot();
    browser.shown(By.cssSelector("[data-testid=warehouses]"));
    browser.open(TestTwin.get().uri() + "/ui#/purge/" + warehouse);
    browser.waitForText(By.cssSelector("[data-testid=purge-jobs]"), "sales.orders");
    assertThat(text("[data-testid=purge-jobs]")).contains("table");
    browser.screenshot("purge-jobs");
  }

  @Test
  void aWrongSecretIsRefusedAndAPastedTokenSignsIn() {
    browser.submit(
        By.cssSelector("[data-testid=sign-in]"),
        "clientId",
        TestTwin.ROOT.clientId(),
        "clientSecret",
        "not-the-secret");
    browser.waitForText(By.cssSelector("[data-testid=sign-in-error]"), "Sign-in refused");
    assertThat(Set.copyOf(sessionKeys())).isEmpty();

    browser.submit(By.cssSelector("[data-testid=paste-token]"), "token", TestTwin.rootToken());
    browser.shown(By.cssSelector("[data-testid=warehouses]"));
    assertThat(sessionKeys()).containsExactly("puddle.token");
    assertThat(
            browser.driver().executeScript("return localStorage.length + document.cookie.length"))
        .isEqualTo(0L);
  }

  private void signInAsRoot() {
    browser.submit(
        By.cssSelector("[data-testid=sign-in]"),
        "clientId",
        TestTwin.ROOT.clientId(),
        "clientSecret",
        TestTwin.ROOT.clientSecret());
  }

  @SuppressWarnings("unchecked")
  private static List<String> sessionKeys() {
    return (List<String>) browser.driver().executeScript("return Object.keys(sessionStorage)");
  }

  /** Opens a namespace of the tree by its name, as shown. */
  private static void openNamespace(String name) {
    browser.shown(By.cssSelector("[data-testid=namespace-tree]"));
    browser.driver().findElements(By.cssSelector("details > summary")).stream()
        .filter(summary -> summary.getText().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("No namespace " + name + " in the tree"))
        .click();
  }

  private static String text(String css) {
    return browser.shown(By.cssSelector(css)).getText();
  }

  private static DataFile dataFile(Table table, String name) {
    return DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/" + name + ".parquet")
        .withFileSizeInBytes(10)
        .withRecordCount(1)
        .build();
  }
}
