package dev.puddle.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The size of what would be deployed: the jars the build left in {@code local/target} and {@code
 * functions/target}, and the functions module's whole runtime class path (what a Lambda deployment
 * package of the read function holds).
 */
public final class ArtifactSizes {
  private static final List<String> MODULES = List.of("local", "functions");

  private ArtifactSizes() {}

  /** A file, or a set of them, and its size. */
  public record Artifact(String name, long bytes) {}

  public static List<Artifact> measure(Path projectDirectory, List<Path> functionsClassPath) {
    List<Artifact> artifacts = new ArrayList<>();
    for (String module : MODULES) {
      Path target = projectDirectory.resolve(module).resolve("target");
      if (!Files.isDirectory(target)) {
        continue;
      }
      try (Stream<Path> files = Files.list(target)) {
        files
            .filter(file -> file.getFileName().toString().endsWith(".jar"))
            // shade's leftovers and test jars are never deployed
            .filter(file -> !file.getFileName().toString().startsWith("original-"))
            .filter(file -> !file.getFileName().toString().endsWith("-tests.jar"))
            .sorted(Comparator.comparing(Path::toString))
            .forEach(
                file ->
                    artifacts.add(
                        new Artifact(module + "/target/" + file.getFileName(), size(file))));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    artifacts.add(
        new Artifact(
            "functions runtime class path (" + functionsClassPath.size() + " jars)",
            functionsClassPath.stream().mapToLong(ArtifactSizes::size).sum()));
    return artifacts;
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
