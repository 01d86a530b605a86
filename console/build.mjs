// Bundles the console into the jar's resources: one script, one stylesheet and the page, under
// dev/puddle/console/ (the twin serves them at /ui, the CDK stack uploads them to S3).
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";

const out = process.env.CONSOLE_OUT ?? "target/classes/dev/puddle/console";
mkdirSync(out, { recursive: true });
await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  minify: true,
  sourcemap: false,
  format: "esm",
  target: "es2022",
  outfile: `${out}/app.js`,
  logLevel: "warning",
});
for (const file of ["index.html", "app.css"]) {
  copyFileSync(`static/${file}`, `${out}/${file}`);
}
