/**
 * The store format this build writes and the highest it reads, for every backend (the SQLite
 * file's `user_version`, the ZooKeeper store's `format` znode). One number for the whole store:
 * format N fixes the shape of every kind of record (docs/architecture.md, "Store format").
 *
 * - 1: the first format.
 * - 2: health check protocols with Marathon's `MESOS_*` names (record-migrations.ts upgrades 1).
 * - 3: run specs and groups as Marathon's JSON rendered from the typed model (../run-spec-record.ts;
 *   record-migrations.ts upgrades 2, run-spec-migration.ts).
 * - 4: roots and root versions hold their apps and pods as references (id and version) to the run
 *   spec version records (record-migrations.ts upgrades 3, root-reference-migration.ts).
 * - 5: a stored task may hold its container's `ipAddresses` (stored-instance.ts); no record of
 *   format 4 changes (record-migrations.ts upgrades 4 as it is), but a pacer of format 4 would
 *   refuse such a task, so the store says it is newer.
 * - 6: a deployment's original and target roots hold their apps and pods as references too, as
 *   the root does since 4 (record-migrations.ts upgrades 5, root-reference-migration.ts); the
 *   version history keeps what a running deployment's roots refer to (version-history.ts).
 * - 7: a new kind of record, `taskFailure`: each run spec's last task failure (stored-task-failure.ts);
 *   no record of format 6 changes (record-migrations.ts upgrades 6 as it is; the SQLite store makes
 *   its `task_failures` table, the ZooKeeper store its `taskFailure` znode), but a pacer of format 6
 *   knows no such kind, so the store says it is newer.
 * - 8: a deployment's original and target may each be a reference to its root version
 *   (`{"rootVersion": …}`, stored-deployment.ts) where the store holds that very root, as
 *   Marathon's plan refers to its root versions; the version history keeps such root versions
 *   while the deployment runs. No record of format 7 changes (record-migrations.ts upgrades 7 as it
 *   is: a root held whole stays valid), but a pacer of format 7 would refuse such a reference.
 * - 9: an instance may say it was healthy at least once in its incarnation (`proven`,
 *   stored-instance.ts), which the kill-storm floor counts; record-migrations.ts upgrades 8 by
 *   setting it on records running, or unreachable after they had started (what a pacer of format
 *   8 counted after a restart), and a pacer of format 8 would refuse the field.
 *
 * Change any stored record type (stored-instance.ts, stored-deployment.ts, spec-records.ts, …)
 * only together with a bump here and a migration from the previous version.
 */
export const STORE_FORMAT_VERSION = 9;

/** The lowest format version a migration starts from (version 1 is the first pacer wrote). */
export const OLDEST_MIGRATABLE_VERSION = 1;
