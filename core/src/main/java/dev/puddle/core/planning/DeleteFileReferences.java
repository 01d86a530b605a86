package dev.puddle.core.planning;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.rest.responses.BaseScanTaskResponse;
import org.apache.iceberg.util.JsonUtil;

/**
 * Corrects the delete file references of a scan task response as iceberg-core 1.11 writes it. Its
 * serializer indexes a response's delete files by location alone, so the deletion vectors that are
 * blobs of one Puffin file (engines write one such file for many data files) all resolve to the
 * last of them, and a client applies one data file's vector to another's rows
 * (apache/iceberg#17334, fixed upstream by apache/iceberg#17497). Delete this class with the
 * upgrade that carries the fix.
 *
 * <p>A response whose delete files all have distinct locations is left as written. Otherwise each
 * task's {@code delete-file-references} are rewritten to the positions of its own delete files in
 * the {@code delete-files} array, which iceberg-core writes in the order of {@link
 * BaseScanTaskResponse#deleteFiles()}, its tasks in the order of {@link
 * BaseScanTaskResponse#fileScanTasks()}; a delete file is known by its location, content offset and
 * content size, as iceberg-core's {@code DeleteFileSet} knows it.
 */
public final class DeleteFileReferences {
  private static final String TASKS = "file-scan-tasks";
  private static final String REFERENCES = "delete-file-references";

  private DeleteFileReferences() {}

  /**
   * Whether iceberg-core's JSON of {@code response} needs {@link #corrected correcting}: whether
   * two of its delete files share a location.
   */
  public static boolean needed(BaseScanTaskResponse response) {
    List<DeleteFile> deletes = response.deleteFiles();
    return deletes != null
        && response.fileScanTasks() != null
        && deletes.stream().map(DeleteFile::location).distinct().count() != deletes.size();
  }

  /** {@code json}, iceberg-core's JSON of {@code response}, with correct delete file references. */
  public static String corrected(String json, BaseScanTaskResponse response) {
    if (!needed(response)) {
      return json;
    }
    List<DeleteFile> deletes = response.deleteFiles();
    List<FileScanTask> tasks = response.fileScanTasks();
    Map<Identity, Integer> positions = new HashMap<>();
    for (int i = 0; i < deletes.size(); i++) {
      positions.putIfAbsent(Identity.of(deletes.get(i)), i);
    }
    try {
      ObjectNode root = (ObjectNode) JsonUtil.mapper().readTree(json);
      JsonNode written = root.get(TASKS);
      for (int i = 0; i < tasks.size(); i++) {
        List<DeleteFile> own = tasks.get(i).deletes();
        if (own == null || own.isEmpty()) {
          continue;
        }
        ArrayNode references = ((ObjectNode) written.get(i)).putArray(REFERENCES);
        own.stream().map(delete -> position(positions, delete)).distinct().forEach(references::add);
      }
      return JsonUtil.mapper().writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int position(Map<Identity, Integer> positions, DeleteFile delete) {
    Integer position = positions.get(Identity.of(delete));
    if (position == null) {
      throw new IllegalStateException("A task's delete file is not in its response: " + delete);
    }
    return position;
  }

  private record Identity(String location, Long contentOffset, Long contentSize) {
    static Identity of(DeleteFile file) {
      return new Identity(file.location(), file.contentOffset(), file.contentSizeInBytes());
    }
  }
}
