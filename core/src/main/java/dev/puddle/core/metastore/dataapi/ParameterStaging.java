package dev.puddle.core.metastore.dataapi;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import software.amazon.awssdk.services.rdsdata.model.Field;
import software.amazon.awssdk.services.rdsdata.model.SqlParameter;

/**
 * Gets values larger than one Data API request into a statement. A request may be at most 4 MiB of
 * JSON, while a commit writes the whole new metadata JSON, which can be many megabytes. When a
 * statement's parameters would not fit, its largest text values are sent ahead in pieces, each
 * appended to a transaction-local setting ({@code set_config(…, true)}), and the statement reads
 * them with {@code current_setting(…)}. Settings made with {@code is_local} vanish when the
 * transaction ends, so nothing is left behind on the connection, and the statement must run in a
 * transaction: the connection opens one for it if needed.
 */
final class ParameterStaging {
  /** Bytes of JSON a request may carry: the 4 MiB limit, less room for headers and the rest. */
  static final long REQUEST_BUDGET = 3L << 20;

  /** The JSON envelope of a request besides the SQL and the parameter values. */
  private static final long ENVELOPE = 4_096;

  private static final String SETTING_PREFIX = "puddle.dataapi_p";

  private ParameterStaging() {}

  /** Whether the statement's request would exceed the budget. */
  static boolean needed(String sql, List<Parameter> parameters) {
    long size = ENVELOPE + JsonText.encodedLength(sql);
    for (Parameter parameter : parameters) {
      size += parameter.encodedSize();
    }
    return size > REQUEST_BUDGET;
  }

  /**
   * Sends the largest values ahead, in the transaction, until the statement fits; returns the
   * parameters with those values replaced by their settings.
   */
  static List<Parameter> stage(
      DataApiClient client, String transactionId, String sql, List<Parameter> parameters)
      throws SQLException {
    List<Parameter> result = new ArrayList<>(parameters);
    long[] sizes = new long[result.size()];
    long total = ENVELOPE + JsonText.encodedLength(sql);
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = result.get(i).encodedSize();
      total += sizes[i];
    }
    while (total > REQUEST_BUDGET) {
      int largest = -1;
      for (int i = 0; i < sizes.length; i++) {
        if (stageable(result.get(i)) && (largest < 0 || sizes[i] > sizes[largest])) {
          largest = i;
        }
      }
      if (largest < 0) {
        throw new SQLException(
            "Statement too large for the Data API", DataApiErrors.PROGRAM_LIMIT_EXCEEDED);
      }
      String setting = SETTING_PREFIX + (largest + 1);
      String value = "current_setting('" + setting + "')";
      Parameter staged;
      switch (result.get(largest)) {
        case Parameter.Text text -> {
          send(client, transactionId, setting, text.value());
          staged = new Parameter.Staged(value);
        }
        case Parameter.Array array -> {
          send(client, transactionId, setting, array.value().literal());
          staged =
              new Parameter.Staged(
                  "CAST(" + value + " AS " + array.value().getBaseTypeName() + "[])");
        }
        case Parameter.Bytes bytes -> {
          send(client, transactionId, setting, Base64.getEncoder().encodeToString(bytes.value()));
          staged = new Parameter.Staged("decode(" + value + ", 'base64')");
        }
        default -> throw new IllegalStateException("Not stageable: " + result.get(largest));
      }
      result.set(largest, staged);
      total += staged.encodedSize() - sizes[largest];
      sizes[largest] = staged.encodedSize();
    }
    return result;
  }

  private static boolean stageable(Parameter parameter) {
    return parameter instanceof Parameter.Text
        || parameter instanceof Parameter.Array
        || parameter instanceof Parameter.Bytes;
  }

  /** Appends the value to the setting in pieces that each fit a request. */
  private static void send(DataApiClient client, String transactionId, String setting, String value)
      throws SQLException {
    long pieceBudget = REQUEST_BUDGET - ENVELOPE;
    int start = 0;
    boolean first = true;
    while (first || start < value.length()) {
      int end = JsonText.fittingEnd(value, start, pieceBudget);
      String piece = value.substring(start, end);
      // octet_length: the setting's value is not sent back
      String sql =
          "SELECT octet_length(set_config('"
              + setting
              + "', "
              + (first ? "" : "current_setting('" + setting + "') || ")
              + ":piece, true))";
      client.execute(
          sql,
          List.of(SqlParameter.builder().name("piece").value(Field.fromStringValue(piece)).build()),
          transactionId);
      start = end;
      first = false;
    }
  }
}
