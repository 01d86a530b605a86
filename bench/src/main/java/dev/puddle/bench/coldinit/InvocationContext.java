package dev.puddle.bench.coldinit;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.nio.charset.StandardCharsets;

/** The Lambda context of the one invocation: API Gateway's 30 s deadline from its start. */
final class InvocationContext implements Context {
  private static final long API_GATEWAY_TIMEOUT_MS = 30_000;

  private final long deadlineMillis = System.currentTimeMillis() + API_GATEWAY_TIMEOUT_MS;

  @Override
  public String getAwsRequestId() {
    return "cold-init";
  }

  @Override
  public String getLogGroupName() {
    return "bench";
  }

  @Override
  public String getLogStreamName() {
    return "bench";
  }

  @Override
  public String getFunctionName() {
    return "puddle-read";
  }

  @Override
  public String getFunctionVersion() {
    return "$LATEST";
  }

  @Override
  public String getInvokedFunctionArn() {
    return "arn:aws:lambda:us-east-1:000000000000:function:puddle-read";
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
