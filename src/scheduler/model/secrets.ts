/** One declared secret (`secrets.<name>`, Marathon's `secrets.raml` `SecretDef`): where the secret store keeps it. */
export interface SecretDef {
  readonly source: string;
}

/**
 * The secrets a run spec declares, by name. Environment variables and secret volumes refer to
 * them by that name. pacer has no secret store: they are kept, echoed and handed to nothing.
 */
export type Secrets = Readonly<Record<string, SecretDef>>;

/**
 * Environment variables whose value is a secret (`"DB_PASSWORD": {"secret": "db"}`): variable
 * name → secret name. Kept apart from the plain variables, which are what a task is given.
 */
export type SecretEnv = Readonly<Record<string, string>>;
