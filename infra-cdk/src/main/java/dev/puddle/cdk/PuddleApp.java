package dev.puddle.cdk;

import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import java.nio.file.Files;
import java.util.Locale;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Aspects;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;

/**
 * The CDK app ({@code npx cdk synth|deploy} in infra-cdk/, see cdk.json and the README): one Puddle
 * stack configured by context parameters, checked by cdk-nag's AWS Solutions rules.
 */
public final class PuddleApp {
  private PuddleApp() {}

  public static void main(String[] args) {
    App app = new App();
    Settings settings = Settings.from(app.getNode()::tryGetContext);
    if (!Files.isRegularFile(settings.functionsJar())) {
      throw new IllegalStateException(
          "No functions artifact at "
              + settings.functionsJar().toAbsolutePath().normalize()
              + ": build it first with ./mvnw -B -pl functions -am package -DskipTests"
              + " (from the checkout's root), or point the context parameter functionsJar at it");
    }
    Object stackName = app.getNode().tryGetContext("stackName");
    new PuddleStack(
        app,
        stackName == null ? "Puddle" : stackName.toString(),
        StackProps.builder()
            .description(
                "Puddle: a serverless Apache Iceberg REST catalog ("
                    + settings.profile().name().toLowerCase(Locale.ROOT)
                    + " profile)")
            .env(
                Environment.builder()
                    .account(System.getenv("CDK_DEFAULT_ACCOUNT"))
                    .region(System.getenv("CDK_DEFAULT_REGION"))
                    .build())
            .build(),
        settings);
    Aspects.of(app).add(AwsSolutionsChecks.Builder.create().verbose(true).build());
    app.synth();
  }
}
