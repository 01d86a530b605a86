package dev.puddle.local;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Runs a handler class from the shaded Lambda artifact in a JVM of its own, as the Lambda runtime
 * would: instantiated once from the environment variables, then invoked with each event file.
 * Prints {@code init <ms>}, then one {@code response <ms> <json>} line per event. Only the JDK and
 * the artifact are on its class path besides this class.
 */
public final class ShadedJarRunner {
  private ShadedJarRunner() {}

  public static void main(String[] args) throws Exception {
    long start = System.nanoTime();
    RequestStreamHandler handler =
        (RequestStreamHandler) Class.forName(args[0]).getConstructor().newInstance();
    System.out.printf(Locale.ROOT, "init %.1f%n", (System.nanoTime() - start) / 1e6);
    for (int i = 1; i < args.length; i++) {
      ByteArrayOutputStream output = new ByteArrayOutputStream();
      long invoked = System.nanoTime();
      try (InputStream input = Files.newInputStream(Path.of(args[i]))) {
        handler.handleRequest(input, output, new RunnerContext());
      }
      System.out.printf(
          Locale.ROOT,
          "response %.1f %s%n",
          (System.nanoTime() - invoked) / 1e6,
          output.toString(StandardCharsets.UTF_8));
    }
  }

  /** The Lambda context of an invocation with 30 s to run. */
  private static final class RunnerContext implements Context {
    private final long deadline = System.currentTimeMillis() + 30_000;

    @Override
    public String getAwsRequestId() {
      return "shaded-jar";
    }

    @Override
    public String getLogGroupName() {
      return "shaded-jar";
    }

    @Override
    public String getLogStreamName() {
      return "shaded-jar";
    }

    @Override
    public String getFunctionName() {
      return "puddle";
    }

    @Override
    public String getFunctionVersion() {
      return "1";
    }

    @Override
    public String getInvokedFunctionArn() {
      return "arn:aws:lambda:us-east-1:000000000000:function:puddle";
    }

    @Override
    public CognitoIdentity getIdentity() {
      return null;
    }

    @Override
    public ClientContext getClientContext() {
      return null;
    }

    @Override
    public int getRemainingTimeInMillis() {
      return (int) Math.max(0, deadline - System.currentTimeMillis());
    }

    @Override
    public int getMemoryLimitInMB() {
      return 1024;
    }

    @Override
    public LambdaLogger getLogger() {
      return new LambdaLogger() {
        @Override
        public void log(String message) {
          System.err.print(message);
        }

        @Override
        public void log(byte[] message) {
          System.err.print(new String(message, StandardCharsets.UTF_8));
        }
      };
    }
  }
}
