package dev.puddle.functions;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.puddle.core.api.RequestLimits;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads {@link HttpApiEvent}s and writes {@link HttpApiResponse}s with Jackson's streaming parser
 * and generator. A function reads one event and writes one response per invocation; doing it with
 * an {@code ObjectMapper} would build databind's introspection of the two records (hundreds of
 * classes) in the init phase of every cold start, before the first answer. The result is what
 * databind gives for the records' annotations: unknown properties skipped, scalars coerced to
 * strings as databind does, a null for a missing or null object, false for a missing or null {@code
 * isBase64Encoded}; the response's properties in the record's order, null ones left out.
 */
final class HttpApiJson {
  /**
   * The longest string an event may hold: the base64 of a body of API Gateway's limit, and some. An
   * event with a longer one (a body beyond the limit) fails with a {@code
   * StreamConstraintsException}, and is answered 413 without being read.
   */
  static final int MAX_EVENT_STRING_CHARS = RequestLimits.MAX_BODY_BYTES / 3 * 4 + 1024;

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder().maxStringLength(MAX_EVENT_STRING_CHARS).build())
          .build();

  private HttpApiJson() {}

  /** The event of an invocation's input, which is closed; fails on JSON that is no event. */
  static HttpApiEvent read(InputStream input) throws IOException {
    try (JsonParser parser = FACTORY.createParser(input)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new JsonParseException(parser, "An API Gateway event must be a JSON object");
      }
      return event(parser);
    }
  }

  /** Writes {@code response} to an invocation's output, which is closed. */
  static void write(HttpApiResponse response, OutputStream output) throws IOException {
    try (JsonGenerator json = FACTORY.createGenerator(output, JsonEncoding.UTF8)) {
      json.writeStartObject();
      json.writeNumberField("statusCode", response.statusCode());
      if (response.headers() != null) {
        json.writeFieldName("headers");
        json.writeStartObject();
        for (Map.Entry<String, String> header : response.headers().entrySet()) {
          json.writeStringField(header.getKey(), header.getValue());
        }
        json.writeEndObject();
      }
      if (response.body() != null) {
        json.writeStringField("body", response.body());
      }
      json.writeBooleanField("isBase64Encoded", response.isBase64Encoded());
      json.writeEndObject();
    }
  }

  private static HttpApiEvent event(JsonParser parser) throws IOException {
    String version = null;
    String routeKey = null;
    String rawPath = null;
    String rawQueryString = null;
    List<String> cookies = null;
    Map<String, String> headers = null;
    Map<String, String> queryStringParameters = null;
    Map<String, String> pathParameters = null;
    HttpApiEvent.RequestContext requestContext = null;
    String body = null;
    boolean isBase64Encoded = false;
    for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
      parser.nextToken();
      switch (name) {
        case "version" -> version = string(parser);
        case "routeKey" -> routeKey = string(parser);
        case "rawPath" -> rawPath = string(parser);
        case "rawQueryString" -> rawQueryString = string(parser);
        case "cookies" -> cookies = strings(parser);
        case "headers" -> headers = stringMap(parser);
        case "queryStringParameters" -> queryStringParameters = stringMap(parser);
        case "pathParameters" -> pathParameters = stringMap(parser);
        case "requestContext" -> requestContext = object(parser) ? requestContext(parser) : null;
        case "body" -> body = string(parser);
        case "isBase64Encoded" -> isBase64Encoded = bool(parser);
        default -> parser.skipChildren();
      }
    }
    return new HttpApiEvent(
        version,
        routeKey,
        rawPath,
        rawQueryString,
        cookies,
        headers,
        queryStringParameters,
        pathParameters,
        requestContext,
        body,
        isBase64Encoded);
  }

  private static HttpApiEvent.RequestContext requestContext(JsonParser parser) throws IOException {
    String accountId = null;
    String apiId = null;
    String domainName = null;
    HttpApiEvent.Http http = null;
    String requestId = null;
    String routeKey = null;
    String stage = null;
    String time = null;
    long timeEpoch = 0;
    for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
      parser.nextToken();
      switch (name) {
        case "accountId" -> accountId = string(parser);
        case "apiId" -> apiId = string(parser);
        case "domainName" -> domainName = string(parser);
        case "http" -> http = object(parser) ? http(parser) : null;
        case "requestId" -> requestId = string(parser);
        case "routeKey" -> routeKey = string(parser);
        case "stage" -> stage = string(parser);
        case "time" -> time = string(parser);
        case "timeEpoch" -> timeEpoch = number(parser);
        default -> parser.skipChildren();
      }
    }
    return new HttpApiEvent.RequestContext(
        accountId, apiId, domainName, http, requestId, routeKey, stage, time, timeEpoch);
  }

  private static HttpApiEvent.Http http(JsonParser parser) throws IOException {
    String method = null;
    String path = null;
    String protocol = null;
    String sourceIp = null;
    String userAgent = null;
    for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
      parser.nextToken();
      switch (name) {
        case "method" -> method = string(parser);
        case "path" -> path = string(parser);
        case "protocol" -> protocol = string(parser);
        case "sourceIp" -> sourceIp = string(parser);
        case "userAgent" -> userAgent = string(parser);
        default -> parser.skipChildren();
      }
    }
    return new HttpApiEvent.Http(method, path, protocol, sourceIp, userAgent);
  }

  /** Whether the current token opens an object, false for null; fails on anything else. */
  private static boolean object(JsonParser parser) throws IOException {
    return switch (parser.currentToken()) {
      case START_OBJECT -> true;
      case VALUE_NULL -> false;
      default -> throw mismatch(parser, "an object");
    };
  }

  /** A string, or a number or boolean as its text (databind's coercion); null for null. */
  private static String string(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    if (token.isScalarValue()) {
      return parser.getText();
    }
    throw mismatch(parser, "a string");
  }

  private static List<String> strings(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    if (token != JsonToken.START_ARRAY) {
      throw mismatch(parser, "an array of strings");
    }
    List<String> values = new ArrayList<>();
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      values.add(string(parser));
    }
    return values;
  }

  private static Map<String, String> stringMap(JsonParser parser) throws IOException {
    if (!object(parser)) {
      return null;
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
      parser.nextToken();
      values.put(name, string(parser));
    }
    return values;
  }

  /** A boolean: also from {@code "true"} or {@code "false"}, or a number (not 0), as databind. */
  private static boolean bool(JsonParser parser) throws IOException {
    return switch (parser.currentToken()) {
      case VALUE_TRUE -> true;
      case VALUE_FALSE, VALUE_NULL -> false;
      case VALUE_NUMBER_INT -> parser.getLongValue() != 0;
      case VALUE_STRING -> {
        String text = parser.getText().trim();
        if (text.equalsIgnoreCase("true")) {
          yield true;
        }
        if (text.isEmpty() || text.equalsIgnoreCase("false") || text.equals("null")) {
          yield false;
        }
        throw mismatch(parser, "a boolean");
      }
      default -> throw mismatch(parser, "a boolean");
    };
  }

  /** A whole number, also from a fraction (truncated) or its text, as databind reads a long. */
  private static long number(JsonParser parser) throws IOException {
    return switch (parser.currentToken()) {
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getValueAsLong();
      case VALUE_NULL -> 0;
      case VALUE_STRING -> {
        String text = parser.getText().trim();
        if (text.isEmpty()) {
          yield 0;
        }
        try {
          yield Long.parseLong(text);
        } catch (NumberFormatException e) {
          throw mismatch(parser, "a number");
        }
      }
      default -> throw mismatch(parser, "a number");
    };
  }

  private static JsonParseException mismatch(JsonParser parser, String expected) {
    return new JsonParseException(
        parser,
        String.format(
            Locale.ROOT,
            "Cannot read %s of an API Gateway event as %s",
            parser.currentToken(),
            expected));
  }
}
