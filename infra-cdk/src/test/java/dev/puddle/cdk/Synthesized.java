package dev.puddle.cdk;

import static dev.puddle.contract.EnvironmentVariable.FUNCTION_GROUP;

import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Aspects;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.cxapi.SynthesisMessage;

/**
 * One synthesized stack, with cdk-nag's AWS Solutions checks applied as the app applies them, and
 * the lookups the tests share: functions by group, their roles' policy statements.
 */
final class Synthesized {
  /** Stands in for the functions' jar: the template only needs an asset to hash. */
  static final String PLACEHOLDER_ARTIFACT = "src/test/resources/placeholder-artifact";

  /** Stands in for the console's built files: the upload only needs a folder to hash. */
  static final String PLACEHOLDER_CONSOLE = "src/test/resources/placeholder-console";

  final Settings settings;
  final PuddleStack stack;
  final Template template;

  /**
   * The template as JSON, read once: each of {@link Template}'s lookups crosses into the jsii
   * process and serializes the whole template again, which made lookups take seconds each.
   */
  final Map<String, Object> json;

  final List<SynthesisMessage> nagErrors;
  final List<SynthesisMessage> nagWarnings;

  private Synthesized(Map<String, Object> context, Consumer<PuddleStack> addition) {
    Map<String, Object> all = new HashMap<>(context);
    all.put("functionsJar", PLACEHOLDER_ARTIFACT);
    all.put("consoleFiles", PLACEHOLDER_CONSOLE);
    App app = App.Builder.create().context(all).build();
    settings = Settings.from(app.getNode()::tryGetContext);
    stack = new PuddleStack(app, "Puddle", StackProps.builder().build(), settings);
    addition.accept(stack);
    Aspects.of(app).add(AwsSolutionsChecks.Builder.create().verbose(true).build());
    template = Template.fromStack(stack);
    json = template.toJSON();
    Annotations annotations = Annotations.fromStack(stack);
    nagErrors = annotations.findError("*", Match.stringLikeRegexp(".*AwsSolutions-.*"));
    nagWarnings = annotations.findWarning("*", Match.stringLikeRegexp(".*(AwsSolutions|CdkNag).*"));
  }

  /** Stacks synthesized from context alone, shared by the test classes of the JVM. */
  private static final Map<Map<String, Object>, Synthesized> SYNTHESIZED = new HashMap<>();

  /**
   * The stack of this context, synthesized once per JVM (a synthesis takes seconds; nothing changes
   * a stack or its template once synthesized).
   */
  static synchronized Synthesized of(Map<String, Object> context) {
    return SYNTHESIZED.computeIfAbsent(Map.copyOf(context), c -> new Synthesized(c, stack -> {}));
  }

  /** The stack with something added before the checks run. */
  static Synthesized of(Map<String, Object> context, Consumer<PuddleStack> addition) {
    return new Synthesized(context, addition);
  }

  /** Resources of a type, by logical id. */
  Map<String, Map<String, Object>> resources(String type) {
    Map<String, Map<String, Object>> resources = new LinkedHashMap<>();
    map(json.get("Resources"))
        .forEach(
            (id, resource) -> {
              if (type.equals(map(resource).get("Type"))) {
                resources.put(id, map(resource));
              }
            });
    return resources;
  }

  Map<String, Object> properties(String logicalId) {
    return map(resource(logicalId).get("Properties"));
  }

  Map<String, Object> resource(String logicalId) {
    return map(map(json.get("Resources")).get(logicalId));
  }

  /** The logical id of the function deployed for a group. */
  String function(Group group) {
    return resources("AWS::Lambda::Function").entrySet().stream()
        .filter(e -> group.handler().equals(map(e.getValue().get("Properties")).get("Handler")))
        .filter(
            e ->
                Objects.equals(
                    group.functionGroup().map(g -> g.name().toLowerCase(Locale.ROOT)).orElse(null),
                    environment(e.getKey()).get(FUNCTION_GROUP.key())))
        .map(Map.Entry::getKey)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no function for " + group));
  }

  Map<String, Object> environment(String functionId) {
    return map(map(properties(functionId).get("Environment")).get("Variables"));
  }

  /** The logical id of the role of a group's function. */
  String role(Group group) {
    return getAtt(properties(function(group)).get("Role"));
  }

  /** Every statement of the policies attached to a role. */
  List<Map<String, Object>> statements(String roleId) {
    List<Map<String, Object>> statements = new ArrayList<>();
    for (Map<String, Object> policy : resources("AWS::IAM::Policy").values()) {
      Map<String, Object> properties = map(policy.get("Properties"));
      boolean attached =
          list(properties.get("Roles")).stream().anyMatch(r -> roleId.equals(ref(r)));
      if (attached) {
        for (Object statement : list(map(properties.get("PolicyDocument")).get("Statement"))) {
          statements.add(map(statement));
        }
      }
    }
    return statements;
  }

  /** The statements of a role that allow an action. */
  List<Map<String, Object>> allowing(String roleId, String action) {
    return statements(roleId).stream()
        .filter(s -> "Allow".equals(s.get("Effect")))
        .filter(s -> strings(s.get("Action")).contains(action))
        .collect(Collectors.toList());
  }

  static String ref(Object value) {
    return value instanceof Map<?, ?> m && m.get("Ref") instanceof String s ? s : null;
  }

  static String getAtt(Object value) {
    return value instanceof Map<?, ?> m && m.get("Fn::GetAtt") instanceof List<?> l
        ? (String) l.get(0)
        : null;
  }

  /** A value that is one string or a list of them, as IAM writes actions. */
  static List<String> strings(Object value) {
    if (value instanceof String s) {
      return List.of(s);
    }
    return list(value).stream().map(Object::toString).toList();
  }

  /** A resource value as text, references included: to match ARNs built with Fn::Join. */
  static String text(Object value) {
    return String.valueOf(value);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object value) {
    return value == null ? Map.of() : (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Object value) {
    return value == null ? List.of() : (List<Object>) value;
  }
}
