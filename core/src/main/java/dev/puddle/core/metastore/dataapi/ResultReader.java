package dev.puddle.core.metastore.dataapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.rdsdata.model.Field;
import software.amazon.awssdk.services.rdsdata.model.SqlParameter;

/**
 * Reads the rows of a query within the Data API's limits: at most 1 MiB per response and 64 KB per
 * row of the result set, while a table's metadata JSON alone can be many megabytes.
 *
 * <p>The query runs wrapped, each of its rows turned into one JSON text ({@code row_to_json}). Rows
 * small enough come back whole in that one call, as long as they fit the response budget; it is the
 * only call of a common read. In a transaction, the call keeps the JSON of every other row in a
 * transaction-local setting ({@code set_config(…, true)}) and returns only its size; the rows are
 * then fetched from there in byte pieces of at most 60,000 bytes, as many per call as fit the
 * budget. All of it comes from the one execution of the query, so the rows are consistent whatever
 * happens in between. Outside a transaction a setting would not outlive the call, so there a row
 * too large makes the wrapped query fail on purpose, which undoes whatever the query did (it may be
 * an {@code UPDATE … RETURNING}), and the read runs again in a transaction of its own.
 *
 * <p>Rows of the JSON form keep every column in order, including duplicate names; values lose their
 * SQL type and are read back by {@link DataApiResultSet}'s getters.
 */
final class ResultReader {
  /** Bytes of JSON a response may carry: the 1 MiB limit, less room for the envelope. */
  static final long RESPONSE_BUDGET = 900_000;

  /** Bytes of a row returned whole, within the 64 KB row limit with room for the other columns. */
  static final int ROW_LIMIT = 60_000;

  /** Bytes of one piece of a large row. */
  static final int PIECE = 60_000;

  /** JSON bytes counted per row besides its value. */
  private static final int ROW_OVERHEAD = 150;

  /** A query may return at most this many rows, so that their overhead fits a response. */
  static final int MAX_ROWS = 2_000;

  private static final String SETTING_PREFIX = "puddle.dataapi_row_";

  /** In the error a wrapped query raises on purpose for a row it cannot return outright. */
  private static final String TOO_LARGE = "puddle-dataapi-row-too-large";

  /** In the error a wrapped query raises on purpose past {@link #MAX_ROWS} rows. */
  private static final String TOO_MANY_ROWS = "puddle-dataapi-too-many-rows";

  private final DataApiClient client;

  ResultReader(DataApiClient client) {
    this.client = client;
  }

  /**
   * The rows of a query whose SQL uses named parameters, each row's values in column order; in the
   * transaction if one is given.
   */
  List<List<JsonNode>> read(String sql, List<SqlParameter> parameters, String transactionId)
      throws SQLException {
    String wrapped = firstCall(sql);
    if (transactionId != null) {
      return readInTransaction(wrapped, parameters, transactionId);
    }
    try {
      return values(first(wrapped, parameters, null));
    } catch (SQLException e) {
      if (!String.valueOf(e.getMessage()).contains(TOO_LARGE)) {
        throw e;
      }
    }
    String transaction = client.begin();
    List<List<JsonNode>> rows;
    try {
      rows = readInTransaction(wrapped, parameters, transaction);
    } catch (SQLException | RuntimeException e) {
      try {
        client.rollback(transaction);
      } catch (SQLException rollbackFailure) {
        e.addSuppressed(rollbackFailure);
      }
      throw e;
    }
    client.commit(transaction);
    return rows;
  }

  /** Reads in a transaction: the first call keeps the large rows, then their pieces. */
  private List<List<JsonNode>> readInTransaction(
      String wrapped, List<SqlParameter> parameters, String transactionId) throws SQLException {
    List<Row> rows = first(wrapped, parameters, transactionId);
    if (!rows.stream().allMatch(Row::whole)) {
      fetch(rows, transactionId);
    }
    return values(rows);
  }

  /** A row of the result: its number, its size, and its JSON once it is known. */
  private static final class Row {
    private final long number;
    private final long size;
    private String json;
    private final ByteArrayOutputStream pieces;

    Row(long number, long size, String json) {
      this.number = number;
      this.size = size;
      this.json = json;
      this.pieces = json == null ? new ByteArrayOutputStream() : null;
    }

    boolean whole() {
      return json != null;
    }
  }

  private List<Row> first(String wrapped, List<SqlParameter> parameters, String transactionId)
      throws SQLException {
    List<SqlParameter> all = new ArrayList<>(parameters);
    all.add(number("dataapi_row_limit", ROW_LIMIT));
    all.add(number("dataapi_budget", RESPONSE_BUDGET));
    all.add(number("dataapi_max_rows", MAX_ROWS));
    all.add(
        SqlParameter.builder()
            .name("dataapi_keep")
            .value(Field.fromBooleanValue(transactionId != null))
            .build());
    List<List<Field>> records;
    try {
      records = client.execute(wrapped, all, transactionId).records();
    } catch (SQLException e) {
      if (String.valueOf(e.getMessage()).contains(TOO_MANY_ROWS)) {
        throw new SQLException(
            "A query over the Data API may return at most " + MAX_ROWS + " rows",
            DataApiErrors.PROGRAM_LIMIT_EXCEEDED,
            e);
      }
      throw e;
    }
    List<Row> rows = new ArrayList<>(records.size());
    for (List<Field> record : records) {
      Field json = record.get(1);
      rows.add(
          new Row(
              record.get(0).longValue(),
              record.get(2).longValue(),
              Boolean.TRUE.equals(json.isNull()) ? null : json.stringValue()));
    }
    rows.sort(Comparator.comparingLong(row -> row.number));
    return rows;
  }

  /** A piece of a large row to fetch: which row, from which byte (counting from 1), how many. */
  private record Piece(Row row, long offset, long length) {
    long responseSize() {
      return 4 * ((length + 2) / 3) + ROW_OVERHEAD; // base64
    }
  }

  /** Fetches the large rows' JSON from their settings, as many pieces per call as fit. */
  private void fetch(List<Row> rows, String transactionId) throws SQLException {
    List<Piece> pieces = new ArrayList<>();
    for (Row row : rows) {
      if (!row.whole()) {
        for (long offset = 1; offset <= row.size; offset += PIECE) {
          pieces.add(new Piece(row, offset, Math.min(PIECE, row.size - offset + 1)));
        }
      }
    }
    int next = 0;
    while (next < pieces.size()) {
      int end = next;
      long size = 0;
      while (end < pieces.size()
          && (end == next || size + pieces.get(end).responseSize() <= RESPONSE_BUDGET)) {
        size += pieces.get(end).responseSize();
        end++;
      }
      List<Piece> call = pieces.subList(next, end);
      List<List<Field>> records =
          client
              .execute(
                  PIECES,
                  List.of(
                      number("dataapi_first_row", call.getFirst().row().number),
                      number("dataapi_last_row", call.getLast().row().number),
                      text("dataapi_rows", array(call, piece -> piece.row().number)),
                      text("dataapi_offsets", array(call, Piece::offset)),
                      text("dataapi_lengths", array(call, Piece::length))),
                  transactionId)
              .records();
      if (records.size() != call.size()) {
        throw new SQLException("Expected " + call.size() + " pieces, got " + records.size());
      }
      for (int i = 0; i < call.size(); i++) {
        call.get(i).row().pieces.writeBytes(records.get(i).get(0).blobValue().asByteArray());
      }
      next = end;
    }
    for (Row row : rows) {
      if (!row.whole()) {
        if (row.pieces.size() != row.size) {
          throw new SQLException("Read " + row.pieces.size() + " bytes of a row of " + row.size);
        }
        row.json = row.pieces.toString(StandardCharsets.UTF_8);
      }
    }
  }

  private static List<List<JsonNode>> values(List<Row> rows) throws SQLException {
    List<List<JsonNode>> values = new ArrayList<>(rows.size());
    for (Row row : rows) {
      values.add(RowJson.values(row.json));
    }
    return values;
  }

  /**
   * Each row: its number in the query's order; its JSON if it is returned whole (small enough, and
   * within the response budget, which reserves the overhead of every row); its size in bytes; and
   * for a row not returned whole, when asked to keep it, the size of the JSON kept, else an error.
   * The errors cast a text naming the problem to uuid; the text depends on the row, so that the
   * planner cannot raise it ahead of time. The query becomes the last table expression of a
   * top-level WITH, where data-modifying statements may stand. Windows without ORDER BY take the
   * rows as the query returns them, so nothing is sorted.
   */
  private static String firstCall(String sql) {
    SqlScanner.With with = SqlScanner.splitWith(sql);
    String query =
        with == null
            ? "WITH dataapi_q AS (" + sql
            : with.tableExpressions() + ", dataapi_q AS (" + with.statement();
    return query
        + "\n) SELECT r.n, CASE WHEN r.whole THEN r.j END, r.b,"
        + " CASE WHEN r.n > :dataapi_max_rows THEN "
        + error(TOO_MANY_ROWS)
        + " WHEN r.whole THEN NULL WHEN :dataapi_keep"
        + " THEN octet_length(set_config('"
        + SETTING_PREFIX
        + "' || r.n, r.j, true)) ELSE "
        + error(TOO_LARGE)
        + " END"
        + " FROM (SELECT c.n, c.j, c.b, c.b <= :dataapi_row_limit"
        + " AND sum(c.cost) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"
        + " + "
        + ROW_OVERHEAD
        + " * count(*) OVER () <= :dataapi_budget AS whole"
        + " FROM (SELECT o.n, o.j, octet_length(o.j) AS b,"
        + " CASE WHEN octet_length(o.j) <= :dataapi_row_limit"
        + " THEN octet_length(to_json(o.j)::text) ELSE 0 END AS cost"
        + " FROM (SELECT row_number() OVER () AS n, row_to_json(dataapi_q)::text AS j"
        + " FROM dataapi_q) AS o) AS c) AS r LIMIT :dataapi_max_rows + 1";
  }

  private static String error(String problem) {
    return "length(CAST('" + problem + " ' || r.n AS uuid)::text)";
  }

  /**
   * Byte ranges of kept rows, in the order asked. Reading a setting and converting it to bytes
   * costs as much as the row is large, so it is done once per call for the first and last row of
   * the call, which may be large and span many pieces (uncorrelated subqueries run once); rows in
   * between are whole in the call and so at most a response large.
   */
  private static final String PIECES =
      "SELECT substring(CASE p.n"
          + " WHEN :dataapi_first_row THEN (SELECT "
          + bytes(":dataapi_first_row")
          + ")"
          + " WHEN :dataapi_last_row THEN (SELECT "
          + bytes(":dataapi_last_row")
          + ")"
          + " ELSE "
          + bytes("p.n")
          + " END FROM p.o::integer FOR p.len::integer)"
          + " FROM unnest(CAST(:dataapi_rows AS bigint[]), CAST(:dataapi_offsets AS bigint[]),"
          + " CAST(:dataapi_lengths AS bigint[])) WITH ORDINALITY AS p(n, o, len, k)"
          + " ORDER BY p.k";

  private static String bytes(String row) {
    return "convert_to(current_setting('" + SETTING_PREFIX + "' || " + row + "), 'UTF8')";
  }

  private static String array(List<Piece> pieces, ToLongFunction<Piece> value) {
    return pieces.stream()
        .map(piece -> String.valueOf(value.applyAsLong(piece)))
        .collect(Collectors.joining(",", "{", "}"));
  }

  private static SqlParameter number(String name, long value) {
    return SqlParameter.builder().name(name).value(Field.fromLongValue(value)).build();
  }

  private static SqlParameter text(String name, String value) {
    return SqlParameter.builder().name(name).value(Field.fromStringValue(value)).build();
  }
}
