package dev.puddle.core.rest;

import dev.puddle.core.access.Operation;
import dev.puddle.core.access.Targets;
import dev.puddle.core.api.Response;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RegisterViewRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/** The view operations of the REST specification. */
final class ViewEndpoints {
  private final CatalogObjects objects;
  private final TableEndpoints tables;

  ViewEndpoints(CatalogObjects objects, TableEndpoints tables) {
    this.objects = objects;
    this.tables = tables;
  }

  Response listViews(Scope scope) {
    return tables.list(scope, Kind.VIEW);
  }

  Response createView(Scope scope) {
    CreateViewRequest request = RestJson.read(scope.request().body(), CreateViewRequest.class);
    request.validate();
    Names.checkCreatable(TableIdentifier.of(scope.namespace(), request.name()));
    return Response.json(
        200,
        RestJson.write(CatalogHandlers.createView(scope.catalog(), scope.namespace(), request)));
  }

  Response registerView(Scope scope) {
    RegisterViewRequest request = RestJson.read(scope.request().body(), RegisterViewRequest.class);
    request.validate();
    Names.checkCreatable(TableIdentifier.of(scope.namespace(), request.name()));
    return Response.json(
        200,
        RestJson.write(CatalogHandlers.registerView(scope.catalog(), scope.namespace(), request)));
  }

  Response loadView(Scope scope) {
    return Response.json(
        200, RestJson.write(CatalogHandlers.loadView(scope.catalog(), scope.view())));
  }

  Response viewExists(Scope scope) {
    TableIdentifier view = scope.view();
    if (!objects.exists(scope.warehouse(), view, Kind.VIEW)) {
      throw new NoSuchViewException("View does not exist: %s", view);
    }
    return Response.noContent();
  }

  Response replaceView(Scope scope) {
    UpdateTableRequest request = RestJson.read(scope.request().body(), UpdateTableRequest.class);
    return Response.json(
        200, RestJson.write(CatalogHandlers.updateView(scope.catalog(), scope.view(), request)));
  }

  Response dropView(Scope scope) {
    boolean purge =
        Boolean.parseBoolean(scope.request().queryParameter("purgeRequested").orElse("false"));
    TableIdentifier view = scope.view();
    if (!scope.catalog().dropView(view, purge)) {
      throw new NoSuchViewException("View does not exist: %s", view);
    }
    return Response.noContent();
  }

  Response renameView(Scope scope) {
    RenameTableRequest request = RestJson.read(scope.request().body(), RenameTableRequest.class);
    request.validate();
    Names.checkCreatable(request.destination());
    scope.authorize(Operation.RENAME_VIEW, Targets.rename(request.source(), request.destination()));
    scope.catalog().renameView(request.source(), request.destination());
    return Response.noContent();
  }
}
