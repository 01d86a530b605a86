package dev.puddle.bench.coldinit;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.functions.CatalogHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a fresh Lambda execution environment of the read function does before its first answer:
 * construct {@link CatalogHandler} from the environment variables (its init phase) and serve one
 * event. Runs on the functions module's class path only; the runner times it from process spawn to
 * the line this prints.
 */
public final class ColdInitMain {
  /** The line the runner waits for, followed by the response's status code and {@link #CLASSES}. */
  public static final String DONE = "cold-init done, status ";

  /** Follows the status: how many classes the JVM had loaded when the answer was written. */
  public static final String CLASSES = ", classes ";

  private ColdInitMain() {}

  /** {@code args[0]}: an API Gateway event file. */
  public static void main(String[] args) throws IOException {
    CatalogHandler handler = new CatalogHandler();
    ByteArrayOutputStream response = new ByteArrayOutputStream();
    try (InputStream event = Files.newInputStream(Path.of(args[0]))) {
      handler.handleRequest(event, response, new InvocationContext());
    }
    // counted before this reads the answer with databind, which the functions jar need not load;
    // the count includes the few classes of the management bean it is read from
    long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
    int status = new ObjectMapper().readTree(response.toByteArray()).path("statusCode").asInt();
    System.out.println(DONE + status + CLASSES + classes);
    // the handler's connections would keep a Lambda environment warm; this one is done
    System.exit(0);
  }
}
