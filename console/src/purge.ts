import { segment } from "./api";
import { listAll } from "./catalog";
import { h, table } from "./dom";

interface PurgeJob {
  id: string;
  kind: string;
  identifier: string;
  state: string;
  phase: string;
  attempts: number;
  "deleted-files": number;
  "skipped-files": number;
  "last-error": string | null;
  "created-at": string;
  "finished-at"?: string | null;
}

/** A warehouse's purge jobs, newest first, each with its progress and latest error. */
export async function purgePage(warehouse: string): Promise<HTMLElement> {
  const jobs = await listAll<PurgeJob>(
    `/admin/v1/warehouses/${segment(warehouse)}/purge-jobs`,
    "purge-jobs",
  );
  return h(
    "article",
    { "data-testid": "purge-page" },
    h("h1", {}, `Purge jobs of ${warehouse}`),
    jobs.length === 0
      ? h("p", {}, "No purge jobs: dropping a table with purge starts one.")
      : table(
          ["created", "kind", "identifier", "state", "phase", "attempts", "deleted", "skipped", "finished", "last error"],
          jobs.map((job) => [
            job["created-at"],
            job.kind,
            job.identifier,
            h("span", { class: `state ${job.state}` }, job.state),
            job.phase,
            job.attempts,
            job["deleted-files"],
            job["skipped-files"],
            job["finished-at"] ?? "",
            job["last-error"] ?? "",
          ]),
          "purge-jobs",
        ),
  );
}
