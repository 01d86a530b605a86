package dev.puddle.core.signing;

import dev.puddle.core.storage.S3Location;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * An S3 request an engine asks Puddle to sign, as far as signing it needs: which {@link S3Action}
 * it is, and every object location it reaches (the object; a listing's prefix; each key a
 * DeleteObjects body names). A request that is none of the actions, or reaches its objects in a way
 * a prefix check could misjudge (a {@code .} or {@code ..} segment, a copy source, an ACL), is
 * refused with 403; a request that cannot be read (no DeleteObjects body, a body that is not its
 * XML) with 400.
 */
public record S3Request(S3Action action, List<S3Location> reaches) {
  private static final Set<String> LIST_PARAMETERS =
      Set.of(
          "list-type",
          "prefix",
          "delimiter",
          "max-keys",
          "continuation-token",
          "start-after",
          "marker",
          "encoding-type",
          "fetch-owner");
  private static final Set<String> READ_PARAMETERS = Set.of("versionId", "partNumber");

  private static final ErrorHandler SILENT =
      new ErrorHandler() {
        @Override
        public void warning(SAXParseException e) {}

        @Override
        public void error(SAXParseException e) throws SAXException {
          throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
          throw e;
        }
      };

  public S3Request {
    reaches = List.copyOf(reaches);
  }

  /** The request to sign, read from a {@code signRequest} body against the storage's addressing. */
  public static S3Request of(RemoteSignRequest request, S3Addressing addressing) {
    if (request.provider() != null && !"s3".equalsIgnoreCase(request.provider())) {
      throw new BadRequestException("Unsupported storage provider: %s", request.provider());
    }
    URI uri = request.uri();
    S3Addressing.Address address =
        addressing
            .address(uri)
            .orElseThrow(() -> refused("%s is not an S3 endpoint of this catalog", host(uri)));
    Map<String, String> query = query(uri.getRawQuery());
    String method = request.method().toUpperCase(Locale.ROOT);
    for (String header : request.headers().keySet()) {
      String name = header.toLowerCase(Locale.ROOT);
      if (name.equals("x-amz-copy-source")
          || name.equals("x-amz-acl")
          || name.startsWith("x-amz-grant-")) {
        throw refused("Requests with %s are not signed", name);
      }
    }
    if (address.key().isEmpty()) {
      return bucketRequest(method, address.bucket(), query, request.body());
    }
    S3Location object = object(address.bucket(), address.key());
    S3Action action =
        switch (method) {
          case "GET" -> only(query, READ_PARAMETERS, S3Action.GET_OBJECT);
          case "HEAD" -> only(query, READ_PARAMETERS, S3Action.HEAD_OBJECT);
          case "PUT" ->
              query.isEmpty()
                  ? S3Action.PUT_OBJECT
                  : exactly(query, Set.of("partNumber", "uploadId"), S3Action.UPLOAD_PART);
          case "POST" ->
              query.containsKey("uploads")
                  ? exactly(query, Set.of("uploads"), S3Action.CREATE_MULTIPART_UPLOAD)
                  : exactly(query, Set.of("uploadId"), S3Action.COMPLETE_MULTIPART_UPLOAD);
          case "DELETE" ->
              query.isEmpty()
                  ? S3Action.DELETE_OBJECT
                  : exactly(query, Set.of("uploadId"), S3Action.ABORT_MULTIPART_UPLOAD);
          default -> throw refused("%s requests are not signed", method);
        };
    return new S3Request(action, List.of(object));
  }

  private static S3Request bucketRequest(
      String method, String bucket, Map<String, String> query, String body) {
    if (method.equals("GET") && LIST_PARAMETERS.containsAll(query.keySet())) {
      String prefix = query.get("prefix");
      if (prefix == null || prefix.isEmpty()) {
        throw refused("A listing of bucket %s is signed only under a prefix", bucket);
      }
      return new S3Request(S3Action.LIST_OBJECTS, List.of(object(bucket, prefix)));
    }
    if (method.equals("POST") && query.keySet().equals(Set.of("delete"))) {
      List<S3Location> objects = new ArrayList<>();
      for (String key : deletedKeys(body)) {
        objects.add(object(bucket, key));
      }
      return new S3Request(S3Action.DELETE_OBJECTS, objects);
    }
    throw refused("%s %s on bucket %s is not signed", method, query.keySet(), bucket);
  }

  /** The keys of a DeleteObjects body. */
  private static List<String> deletedKeys(String body) {
    if (body == null || body.isBlank()) {
      throw new BadRequestException("A DeleteObjects request to sign needs its body");
    }
    Document document;
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setNamespaceAware(true);
      DocumentBuilder builder = factory.newDocumentBuilder();
      builder.setErrorHandler(SILENT); // the exception says what is wrong: nothing on stderr
      document = builder.parse(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    } catch (ParserConfigurationException | SAXException | IOException e) {
      throw new BadRequestException("The DeleteObjects body is not XML: %s", e.getMessage());
    }
    if (!"Delete".equals(document.getDocumentElement().getLocalName())) {
      throw new BadRequestException("The DeleteObjects body is not a Delete element");
    }
    NodeList keys = document.getElementsByTagNameNS("*", "Key");
    if (keys.getLength() == 0) {
      throw new BadRequestException("The DeleteObjects body names no key");
    }
    List<String> result = new ArrayList<>(keys.getLength());
    for (int i = 0; i < keys.getLength(); i++) {
      result.add(keys.item(i).getTextContent());
    }
    return result;
  }

  /** An object location, refused if a segment could make S3 or a proxy resolve it elsewhere. */
  private static S3Location object(String bucket, String key) {
    for (String segment : key.split("/", -1)) {
      if (segment.equals(".") || segment.equals("..")) {
        throw refused("Keys with . or .. segments are not signed: %s", key);
      }
    }
    return new S3Location(bucket, key);
  }

  private static S3Action only(Map<String, String> query, Set<String> allowed, S3Action action) {
    if (!allowed.containsAll(query.keySet())) {
      throw refused("%s with %s is not signed", action, query.keySet());
    }
    return action;
  }

  private static S3Action exactly(Map<String, String> query, Set<String> names, S3Action action) {
    if (!query.keySet().equals(names)) {
      throw refused("%s with %s is not signed", action, query.keySet());
    }
    return action;
  }

  /** The query's parameters, decoded; a parameter given twice is refused. */
  private static Map<String, String> query(String raw) {
    Map<String, String> parameters = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return parameters;
    }
    for (String pair : raw.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int equals = pair.indexOf('=');
      String name = decode(equals < 0 ? pair : pair.substring(0, equals));
      String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
      if (parameters.put(name, value) != null) {
        throw refused("Query parameter %s is given twice", name);
      }
    }
    return parameters;
  }

  /** Percent-decoding as S3 reads a query: a {@code +} stays a plus sign. */
  private static String decode(String encoded) {
    try {
      return URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("Malformed query in the request to sign: %s", encoded);
    }
  }

  private static String host(URI uri) {
    return uri.getHost() == null ? uri.toString() : uri.getHost();
  }

  private static ForbiddenException refused(String message, Object... args) {
    return new ForbiddenException("Not signed: " + message, args);
  }
}
