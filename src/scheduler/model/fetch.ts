/**
 * Something the fetcher downloads into the task's sandbox before the task starts: an app's
 * `fetch[]` (or its deprecated `uris`) or a pod container's `artifacts[]` (Marathon's
 * `artifact.raml` `Artifact`). A flag that is absent was not given: the fetcher's default applies
 * (`extract` true, `executable` and `cache` false), and the definition is echoed without it.
 */
export interface Artifact {
  readonly uri: string;
  readonly extract?: boolean;
  readonly executable?: boolean;
  readonly cache?: boolean;
  /** The file name in the sandbox (Mesos `output_file`). */
  readonly destPath?: string;
}
