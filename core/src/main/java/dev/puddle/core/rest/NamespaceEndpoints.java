package dev.puddle.core.rest;

import dev.puddle.core.access.Operation;
import dev.puddle.core.access.Targets;
import dev.puddle.core.api.Response;
import dev.puddle.core.catalog.PuddleCatalog;
import dev.puddle.core.metastore.Listing;
import dev.puddle.core.metastore.Namespaces;
import dev.puddle.core.metastore.Namespaces.PropertiesUpdate;
import dev.puddle.core.metastore.Page;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.responses.CreateNamespaceResponse;
import org.apache.iceberg.rest.responses.GetNamespaceResponse;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.UpdateNamespacePropertiesResponse;

/** The namespace operations of the REST specification. */
final class NamespaceEndpoints {
  private final Namespaces namespaces;
  private final ListingAnswers answers;

  NamespaceEndpoints(Namespaces namespaces, ListingAnswers answers) {
    this.namespaces = namespaces;
    this.answers = answers;
  }

  /**
   * The child namespaces of {@code parent} the caller may see. The page is fetched as the
   * children's names, made namespaces only for a response not answered before: 2,000 children
   * compare as 2,000 strings, and allocate no namespace (whose making checks each level with a
   * regex).
   */
  Response listNamespaces(Scope scope) {
    Namespace parent = Names.namespace(scope.request().queryParameter("parent").orElse(null));
    Paging paging = Paging.of(scope.request());
    boolean everything =
        scope.allows(Operation.SHOW_EVERY_CHILD_NAMESPACE, Targets.namespace(parent));
    Optional<Page<String>> first = scope.listed().map(read -> read.names(parent));
    // every entry's JSON is the parent's levels and the child's name, in brackets, then a comma
    long entryBytes = 1 + Paging.jsonBytes(parent) + 1;
    Page<String> page =
        paging.fetch(
            first.map(names -> everything ? names : visible(scope, parent, names)),
            (token, size) -> {
              Page<String> names = names(namespaces.list(scope.warehouse(), parent, token, size));
              return everything ? names : visible(scope, parent, names);
            },
            name -> entryBytes + Paging.jsonBytes(name),
            Listing::tokenAfter);
    return answers.answer(
        new ListingAnswers.Question("namespace", scope.warehouse().id(), parent, paging),
        page,
        names -> {
          ListNamespacesResponse.Builder response =
              ListNamespacesResponse.builder().nextPageToken(names.nextPageToken());
          names.items().forEach(name -> response.add(Namespaces.child(parent, name)));
          return response.build();
        });
  }

  /** The last levels of a page of child namespaces, with its token. */
  private static Page<String> names(Page<Namespace> page) {
    return page.map(ns -> ns.level(ns.length() - 1));
  }

  /**
   * The names of the child namespaces of a page the caller may see, for one without NAMESPACE_LIST
   * on the parent: those it holds something on, above or within.
   */
  private static Page<String> visible(Scope scope, Namespace parent, Page<String> page) {
    return new Page<>(
        page.items().stream()
            .filter(
                name ->
                    scope.allows(
                        Operation.SHOW_NAMESPACE,
                        Targets.namespace(Namespaces.child(parent, name))))
            .toList(),
        page.nextPageToken());
  }

  Response createNamespace(Scope scope) {
    CreateNamespaceRequest request =
        RestJson.read(scope.request().body(), CreateNamespaceRequest.class);
    request.validate();
    Names.checkCreatable(request.namespace());
    scope.authorize(Operation.CREATE_NAMESPACE, Targets.namespace(request.namespace()));
    namespaces.create(scope.warehouse(), request.namespace(), request.properties(), scope.change());
    return Response.json(
        200,
        RestJson.write(
            CreateNamespaceResponse.builder()
                .withNamespace(request.namespace())
                .setProperties(request.properties())
                .build()));
  }

  /**
   * A namespace's properties, with the {@code location} its tables get by default when it has none
   * of its own: engines that place a new table themselves (Trino) do so under it.
   */
  Response loadNamespaceMetadata(Scope scope) {
    Namespace namespace = scope.namespace();
    Map<String, String> properties = new HashMap<>(namespaces.load(scope.warehouse(), namespace));
    properties.putIfAbsent(
        Namespaces.LOCATION, PuddleCatalog.defaultLocation(scope.warehouse(), namespace));
    return Response.json(
        200,
        RestJson.write(
            GetNamespaceResponse.builder()
                .withNamespace(namespace)
                .setProperties(properties)
                .build()));
  }

  Response namespaceExists(Scope scope) {
    Namespace namespace = scope.namespace();
    if (!namespaces.exists(scope.warehouse(), namespace)) {
      throw new NoSuchNamespaceException("Namespace does not exist: %s", namespace);
    }
    return Response.noContent();
  }

  Response dropNamespace(Scope scope) {
    Namespace namespace = scope.namespace();
    if (!namespaces.drop(scope.warehouse(), namespace, scope.change())) {
      throw new NoSuchNamespaceException("Namespace does not exist: %s", namespace);
    }
    return Response.noContent();
  }

  Response updateProperties(Scope scope) {
    UpdateNamespacePropertiesRequest request =
        RestJson.read(scope.request().body(), UpdateNamespacePropertiesRequest.class);
    request.validate();
    PropertiesUpdate result =
        namespaces.updateProperties(
            scope.warehouse(),
            scope.namespace(),
            request.updates(),
            Set.copyOf(request.removals()),
            scope.change());
    return Response.json(
        200,
        RestJson.write(
            UpdateNamespacePropertiesResponse.builder()
                .addUpdated(result.updated())
                .addRemoved(result.removed())
                .addMissing(result.missing())
                .build()));
  }
}
