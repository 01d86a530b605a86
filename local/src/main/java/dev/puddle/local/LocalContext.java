package dev.puddle.local;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The Lambda context of a local invocation: by default API Gateway's 30 s deadline from its start,
 * or a function's own time limit.
 */
final class LocalContext implements Context {
  private static final Duration API_GATEWAY_TIMEOUT = Duration.ofSeconds(30);

  private final String requestId;
  private final long deadlineMillis;

  LocalContext(String requestId) {
    this(requestId, API_GATEWAY_TIMEOUT);
  }

  LocalContext(String requestId, Duration timeout) {
    this.requestId = requestId;
    this.deadlineMillis = System.currentTimeMillis() + timeout.toMillis();
  }

  @Override
  public String getAwsRequestId() {
    return requestId;
  }

  @Override
  public String getLogGroupName() {
    return "local";
  }

  @Override
  public String getLogStreamName() {
    return "local";
  }

  @Override
  public String getFunctionName() {
    return "puddle-local";
  }

  @Override
  public String getFunctionVersion() {
    return "$LATEST";
  }

  @Override
  public String getInvokedFunctionArn() {
    return "arn:aws:lambda:local:000000000000:function:puddle-local";
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
    return (int) Math.max(0, deadlineMillis - System.currentTimeMillis());
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
        System.out.print(message);
      }

      @Override
      public void log(byte[] message) {
        System.out.print(new String(message, StandardCharsets.UTF_8));
      }
    };
  }
}
