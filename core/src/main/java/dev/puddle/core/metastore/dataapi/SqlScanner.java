package dev.puddle.core.metastore.dataapi;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the parts of PostgreSQL text that matter to the Data API adapter — positional {@code ?}
 * placeholders, named {@code :name} parameters and the {@code ;} between statements — while
 * skipping string literals ({@code '…'}, {@code E'…'}), quoted identifiers, dollar-quoted bodies
 * and comments, where the same characters mean nothing.
 */
public final class SqlScanner {

  /** A part of the text found by {@link #scan}. */
  public enum Kind {
    /** A positional placeholder {@code ?}. */
    PLACEHOLDER,
    /** A named parameter {@code :name}; the token includes the colon. */
    NAMED,
    /** A statement separator {@code ;}. */
    SEPARATOR,
    /** A {@code --} or {@code /* … *}{@code /} comment, kept verbatim by rewrites. */
    COMMENT
  }

  /** Receives the parts of the text as they are found, in order. */
  public interface Visitor {
    /** Text that is none of the {@link Kind}s: code and literals. */
    void text(String sql, int start, int end);

    void token(Kind kind, String token);
  }

  private SqlScanner() {}

  /** Replaces each {@code ?} by what {@code replacement} returns for its 1-based position. */
  public static String replacePlaceholders(
      String sql, java.util.function.IntFunction<String> replacement) {
    StringBuilder out = new StringBuilder(sql.length() + 16);
    int[] position = {0};
    scan(
        sql,
        new Visitor() {
          @Override
          public void text(String text, int start, int end) {
            out.append(text, start, end);
          }

          @Override
          public void token(Kind kind, String token) {
            out.append(kind == Kind.PLACEHOLDER ? replacement.apply(++position[0]) : token);
          }
        });
    return out.toString();
  }

  /** Counts the {@code ?} placeholders. */
  public static int placeholders(String sql) {
    int[] count = {0};
    scan(
        sql,
        new Visitor() {
          @Override
          public void text(String text, int start, int end) {}

          @Override
          public void token(Kind kind, String token) {
            if (kind == Kind.PLACEHOLDER) {
              count[0]++;
            }
          }
        });
    return count[0];
  }

  /**
   * Splits a script into its statements, without the separators; pieces that hold nothing but
   * whitespace and comments are left out.
   */
  public static List<String> statements(String script) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean[] hasCode = {false};
    scan(
        script,
        new Visitor() {
          @Override
          public void text(String text, int start, int end) {
            current.append(text, start, end);
            if (!hasCode[0] && !text.substring(start, end).isBlank()) {
              hasCode[0] = true;
            }
          }

          @Override
          public void token(Kind kind, String token) {
            if (kind == Kind.SEPARATOR) {
              if (hasCode[0]) {
                statements.add(current.toString().strip());
              }
              current.setLength(0);
              hasCode[0] = false;
            } else {
              current.append(token);
              hasCode[0] |= kind != Kind.COMMENT;
            }
          }
        });
    if (hasCode[0]) {
      statements.add(current.toString().strip());
    }
    return statements;
  }

  /**
   * Whether the statement returns rows: it starts, after comments and parentheses, with {@code
   * SELECT}, {@code WITH}, {@code VALUES}, {@code TABLE} or {@code SHOW}. (A data-modifying
   * statement with {@code RETURNING} returns rows too, when run as a query.)
   */
  public static boolean isQuery(String sql) {
    return switch (firstKeyword(sql)) {
      case "SELECT", "WITH", "VALUES", "TABLE", "SHOW" -> true;
      default -> false;
    };
  }

  /**
   * Whether running the statement again has no effect a caller could see: a {@code SELECT} (its row
   * locks, if any, are held already), {@code VALUES}, {@code TABLE} or {@code SHOW}. A {@code WITH}
   * may hold a data-modifying statement, so it does not count.
   */
  public static boolean isRepeatable(String sql) {
    return switch (firstKeyword(sql)) {
      case "SELECT", "VALUES", "TABLE", "SHOW" -> true;
      default -> false;
    };
  }

  /** The statement's first word, upper case, after comments and parentheses. */
  private static String firstKeyword(String sql) {
    StringBuilder code = new StringBuilder();
    scan(
        sql,
        new Visitor() {
          @Override
          public void text(String text, int start, int end) {
            code.append(text, start, end);
          }

          @Override
          public void token(Kind kind, String token) {
            code.append(kind == Kind.COMMENT ? " " : token);
          }
        });
    String start = code.toString().replace('(', ' ').stripLeading();
    int end = 0;
    while (end < start.length() && Character.isLetter(start.charAt(end))) {
      end++;
    }
    return start.substring(0, end).toUpperCase(java.util.Locale.ROOT);
  }

  /** Walks the text once, handing every part to the visitor. */
  public static void scan(String sql, Visitor visitor) {
    int length = sql.length();
    int textStart = 0;
    int i = 0;
    while (i < length) {
      char c = sql.charAt(i);
      int skipTo = -1;
      int commentEnd = -1;
      if (c == '\'') {
        boolean backslashEscapes =
            i > 0
                && (sql.charAt(i - 1) == 'E' || sql.charAt(i - 1) == 'e')
                && (i < 2 || !isIdentifierPart(sql.charAt(i - 2)));
        skipTo = endOfQuoted(sql, i, '\'', backslashEscapes);
      } else if (c == '"') {
        skipTo = endOfQuoted(sql, i, '"', false);
      } else if (c == '-' && i + 1 < length && sql.charAt(i + 1) == '-') {
        int newline = sql.indexOf('\n', i);
        commentEnd = newline < 0 ? length : newline + 1;
      } else if (c == '/' && i + 1 < length && sql.charAt(i + 1) == '*') {
        commentEnd = endOfBlockComment(sql, i);
      } else if (c == '$' && (i == 0 || !isIdentifierPart(sql.charAt(i - 1)))) {
        skipTo = endOfDollarQuoted(sql, i);
      } else if (c == ':' && i + 1 < length && sql.charAt(i + 1) == ':') {
        skipTo = i + 2; // a cast, not a parameter
      }
      if (skipTo > 0) {
        i = skipTo;
        continue;
      }
      Kind kind = null;
      int tokenEnd = i + 1;
      if (commentEnd > 0) {
        kind = Kind.COMMENT;
        tokenEnd = commentEnd;
      } else if (c == '?') {
        kind = Kind.PLACEHOLDER;
      } else if (c == ';') {
        kind = Kind.SEPARATOR;
      } else if (c == ':' && i + 1 < length && isIdentifierStart(sql.charAt(i + 1))) {
        kind = Kind.NAMED;
        while (tokenEnd < length && isIdentifierPart(sql.charAt(tokenEnd))) {
          tokenEnd++;
        }
      }
      if (kind == null) {
        i++;
        continue;
      }
      visitor.text(sql, textStart, i);
      visitor.token(kind, sql.substring(i, tokenEnd));
      i = tokenEnd;
      textStart = i;
    }
    visitor.text(sql, textStart, length);
  }

  private static int endOfQuoted(String sql, int open, char quote, boolean backslashEscapes) {
    int i = open + 1;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (backslashEscapes && c == '\\') {
        i += 2;
      } else if (c == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2; // a doubled quote stands for itself
        } else {
          return i + 1;
        }
      } else {
        i++;
      }
    }
    return sql.length();
  }

  /** Block comments nest in PostgreSQL. */
  private static int endOfBlockComment(String sql, int open) {
    int depth = 0;
    int i = open;
    while (i < sql.length() - 1) {
      if (sql.charAt(i) == '/' && sql.charAt(i + 1) == '*') {
        depth++;
        i += 2;
      } else if (sql.charAt(i) == '*' && sql.charAt(i + 1) == '/') {
        depth--;
        i += 2;
        if (depth == 0) {
          return i;
        }
      } else {
        i++;
      }
    }
    return sql.length();
  }

  /** {@code $tag$ … $tag$}; a {@code $} that does not open a tag (e.g. {@code $1}) is code. */
  private static int endOfDollarQuoted(String sql, int open) {
    int tagEnd = open + 1;
    while (tagEnd < sql.length()
        && isIdentifierPart(sql.charAt(tagEnd))
        && sql.charAt(tagEnd) != '$') {
      tagEnd++;
    }
    if (tagEnd >= sql.length()
        || sql.charAt(tagEnd) != '$'
        || (tagEnd > open + 1 && Character.isDigit(sql.charAt(open + 1)))) {
      return -1;
    }
    String tag = sql.substring(open, tagEnd + 1);
    int close = sql.indexOf(tag, tagEnd + 1);
    return close < 0 ? sql.length() : close + tag.length();
  }

  private static boolean isIdentifierStart(char c) {
    return Character.isLetter(c) || c == '_';
  }

  private static boolean isIdentifierPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
