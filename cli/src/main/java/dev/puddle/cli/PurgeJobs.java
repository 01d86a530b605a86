package dev.puddle.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.contract.Route;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code puddle purge-jobs}: the warehouse's purge jobs; and {@code puddle dead-letters}: the jobs
 * that gave up (their message is in the dead-letter queue), with their errors, to redrive.
 */
@Command(
    name = "purge-jobs",
    description =
        "Purge jobs of the warehouse: drops with purge, deleting the files (needs"
            + " CATALOG_MANAGE_CONTENT).",
    subcommands = {PurgeJobs.ListJobs.class, PurgeJobs.Show.class, PurgeJobs.Redrive.class})
final class PurgeJobs {
  private static final int ERROR_WIDTH = 60;

  private PurgeJobs() {}

  @Command(name = "list", description = "Lists the purge jobs, newest first.")
  static final class ListJobs extends CatalogCommand {
    @Option(
        names = "--state",
        paramLabel = "STATE",
        description = "Only jobs in this state: queued, running, done or failed.")
    String state;

    @Override
    void run() {
      ArrayNode jobs = list(client(), state);
      if (printer().json()) {
        ObjectNode answer = CatalogClient.JSON.createObjectNode();
        answer.set("purge-jobs", jobs);
        printer().json(answer);
        return;
      }
      printer()
          .table(
              List.of(
                  "ID",
                  "IDENTIFIER",
                  "STATE",
                  "PHASE",
                  "ATTEMPTS",
                  "DELETED",
                  "SKIPPED",
                  "CREATED"),
              Rows.of(
                  jobs,
                  j ->
                      List.of(
                          Printer.text(j, "id"),
                          Printer.text(j, "identifier"),
                          Printer.text(j, "state"),
                          Printer.text(j, "phase"),
                          Printer.text(j, "attempts"),
                          Printer.text(j, "deleted-files"),
                          Printer.text(j, "skipped-files"),
                          Printer.text(j, "created-at"))));
    }
  }

  @Command(name = "show", description = "Shows a purge job, with its last error in full.")
  static final class Show extends CatalogCommand {
    @Parameters(paramLabel = "ID", description = "The job's id.")
    String id;

    @Override
    void run() {
      JsonNode job = client().get(jobPath(client(), Route.GET_PURGE_JOB, id));
      if (printer().json()) {
        printer().json(job);
        return;
      }
      Map<String, String> fields = new LinkedHashMap<>();
      job.properties().forEach(e -> fields.put(e.getKey(), Printer.text(job, e.getKey())));
      printer().fields(fields);
    }
  }

  /** The jobs to redrive: ids, or every failed one. */
  static final class Selection {
    @Parameters(paramLabel = "ID", arity = "1..*", description = "The failed jobs' ids.")
    List<String> ids;

    @Option(names = "--all", required = true, description = "Every failed job of the warehouse.")
    boolean all;
  }

  @Command(
      name = "redrive",
      description =
          "Retries failed purge jobs: each is queued again and resumes where it stopped, once"
              + " the cause of its error is fixed.")
  static final class Redrive extends CatalogCommand {
    @ArgGroup(multiplicity = "1")
    Selection selection;

    @Override
    void run() {
      List<String> ids = new ArrayList<>();
      if (selection.all) {
        list(client(), "failed").forEach(job -> ids.add(job.get("id").asText()));
      } else {
        ids.addAll(selection.ids);
      }
      ArrayNode redriven = CatalogClient.JSON.createArrayNode();
      for (String id : ids) {
        redriven.add(
            client().send("POST", jobPath(client(), Route.REDRIVE_PURGE_JOB, id), Map.of(), null));
        printer().message("Redrove purge job %s: queued again", id);
      }
      if (printer().json()) {
        ObjectNode answer = CatalogClient.JSON.createObjectNode();
        answer.set("purge-jobs", redriven);
        printer().json(answer);
      } else if (ids.isEmpty()) {
        printer().message("No failed purge jobs in warehouse %s", client().warehouse());
      }
    }
  }

  @Command(
      name = "dead-letters",
      description =
          "The purge jobs that gave up (their message is in the dead-letter queue): list them with"
              + " their errors, show one, redrive them.",
      subcommands = {DeadLetters.ListFailed.class, Show.class, Redrive.class})
  static final class DeadLetters {
    @Command(name = "list", description = "Lists the failed purge jobs and their last errors.")
    static final class ListFailed extends CatalogCommand {
      @Override
      void run() {
        ArrayNode jobs = list(client(), "failed");
        if (printer().json()) {
          ObjectNode answer = CatalogClient.JSON.createObjectNode();
          answer.set("purge-jobs", jobs);
          printer().json(answer);
          return;
        }
        printer()
            .table(
                List.of("ID", "IDENTIFIER", "ATTEMPTS", "FAILED", "LAST_ERROR"),
                Rows.of(
                    jobs,
                    j ->
                        List.of(
                            Printer.text(j, "id"),
                            Printer.text(j, "identifier"),
                            Printer.text(j, "attempts"),
                            Printer.text(j, "updated-at"),
                            abbreviate(Printer.text(j, "last-error")))));
      }
    }
  }

  /** Every page of the warehouse's jobs, of one state or all. */
  static ArrayNode list(CatalogClient client, String state) {
    ArrayNode all = CatalogClient.JSON.createArrayNode();
    String pageToken = null;
    do {
      Map<String, String> query = new LinkedHashMap<>();
      if (state != null) {
        query.put("state", state);
      }
      if (pageToken != null) {
        query.put("pageToken", pageToken);
      }
      JsonNode page =
          client.get(
              CatalogClient.path(Route.LIST_PURGE_JOBS, CatalogClient.segment(client.warehouse())),
              query);
      page.path("purge-jobs").forEach(all::add);
      pageToken = page.hasNonNull("next-page-token") ? page.get("next-page-token").asText() : null;
    } while (pageToken != null);
    return all;
  }

  private static String jobPath(CatalogClient client, Route route, String id) {
    return CatalogClient.path(
        route, CatalogClient.segment(client.warehouse()), CatalogClient.segment(id));
  }

  private static String abbreviate(String error) {
    return error.length() <= ERROR_WIDTH ? error : error.substring(0, ERROR_WIDTH - 1) + "…";
  }
}
