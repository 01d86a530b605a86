package dev.puddle.core.metastore;

import java.sql.SQLException;
import java.util.List;

/**
 * Reads a one-dimensional {@code text[]} in the text form PostgreSQL's {@code array_out} writes,
 * for a listing's page of names: pgjdbc's {@code Array#getArray} decodes it char by char, with a
 * copy of the whole text and a StringBuilder per element (2,000 names: some 270 KB and 140 us a
 * listing, half of what the local twin allocated per listing of 2,000 tables); here an element is
 * one substring of the text unless it has escapes. {@code array_out} puts an element in double
 * quotes when it is empty, is {@code NULL} in any case, or holds a quote, backslash, brace, comma
 * or white space, and escapes a quote or backslash inside with a backslash; an unquoted {@code
 * NULL} is SQL's null, which no name is.
 */
final class TextArrays {
  private TextArrays() {}

  /** Adds the elements of {@code text}, an array's text form, to {@code elements} in order. */
  static void addElements(String text, List<String> elements) throws SQLException {
    int last = text.length() - 1;
    // a lower bound other than 1 would come as "[0:1]={…}": no array of names has one
    if (last < 1 || text.charAt(0) != '{' || text.charAt(last) != '}') {
      throw malformed(text);
    }
    if (last == 1) {
      return;
    }
    try {
      int i = 1;
      while (true) {
        String element;
        if (text.charAt(i) == '"') {
          StringBuilder escaped = null;
          int start = ++i;
          while (text.charAt(i) != '"') {
            if (text.charAt(i) == '\\') {
              if (escaped == null) {
                escaped = new StringBuilder();
              }
              escaped.append(text, start, i);
              // the escaped character starts the next run
              start = i + 1;
              i += 2;
            } else {
              i++;
            }
          }
          element =
              escaped == null
                  ? text.substring(start, i)
                  : escaped.append(text, start, i).toString();
          i++;
        } else {
          int start = i;
          while (text.charAt(i) != ',' && text.charAt(i) != '}') {
            i++;
          }
          element = text.substring(start, i);
          if (element.equalsIgnoreCase("NULL")) {
            throw new SQLException("A null in an array of names: " + text);
          }
        }
        elements.add(element);
        char next = text.charAt(i);
        if (next == '}' && i == last) {
          return;
        }
        if (next != ',') {
          throw malformed(text);
        }
        i++;
      }
    } catch (IndexOutOfBoundsException e) {
      throw malformed(text);
    }
  }

  private static SQLException malformed(String text) {
    return new SQLException(
        "Not a one-dimensional array's text: " + text.substring(0, Math.min(text.length(), 100)));
  }
}
