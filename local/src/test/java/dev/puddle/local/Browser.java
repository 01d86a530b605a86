package dev.puddle.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium, the system's (Debian's {@code chromium} and {@code chromium-driver}),
 * driven over WebDriver: both binaries are named, so Selenium never looks for or downloads one.
 */
final class Browser implements AutoCloseable {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Duration WAIT = Duration.ofSeconds(15);

  private final ChromeDriver driver;
  private final WebDriverWait wait;
  private final Path screenshots;

  private Browser(ChromeDriver driver, Path screenshots) {
    this.driver = driver;
    this.wait = new WebDriverWait(driver, WAIT);
    this.screenshots = screenshots;
  }

  static Browser start() {
    for (Path binary : List.of(CHROMIUM, CHROMEDRIVER)) {
      if (!Files.isExecutable(binary)) {
        throw new IllegalStateException(
            binary + " is missing: apt-get install chromium chromium-driver (as .ci/run does)");
      }
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    // root in CI has no user namespace sandbox; a small /dev/shm in containers crashes tabs
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,1800");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability(ChromeOptions.LOGGING_PREFS, logs);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    Path screenshots = Path.of(System.getProperty("puddle.screenshots.dir", "target/screenshots"));
    return new Browser(new ChromeDriver(service, options), screenshots);
  }

  ChromeDriver driver() {
    return driver;
  }

  void open(String url) {
    driver.get(url);
  }

  /** The element, once it is shown. */
  WebElement shown(By by) {
    return wait.until(ExpectedConditions.visibilityOfElementLocated(by));
  }

  /** Waits until the element's text contains {@code text}. */
  void waitForText(By by, String text) {
    wait.until(ExpectedConditions.textToBePresentInElementLocated(by, text));
  }

  /** Waits until {@code count} elements match. */
  List<WebElement> waitForCount(By by, int count) {
    return wait.until(ExpectedConditions.numberOfElementsToBe(by, count));
  }

  /** Fills a form's named fields in order, then submits it. */
  void submit(By form, String... namesAndValues) {
    WebElement element = shown(form);
    for (int i = 0; i < namesAndValues.length; i += 2) {
      WebElement input = element.findElement(By.name(namesAndValues[i]));
      if (input.getTagName().equals("select")) {
        input.findElement(By.cssSelector("option[value='" + namesAndValues[i + 1] + "']")).click();
      } else {
        input.clear();
        input.sendKeys(namesAndValues[i + 1]);
      }
    }
    element.findElement(By.cssSelector("button[type=submit]")).click();
  }

  /** Saves what the page shows now as {@code <name>.png} under the module's target/screenshots. */
  Path screenshot(String name) {
    try {
      Files.createDirectories(screenshots);
      Path file = screenshots.resolve(name + ".png");
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What the page logged to its console since the last call: CSP violations show up here. */
  List<String> consoleMessages() {
    return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
        .map(LogEntry::getMessage)
        .toList();
  }

  @Override
  public void close() {
    driver.quit();
  }
}
