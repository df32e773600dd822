import { ddl } from "./ddl"

/**
 * OAuth dynamic registrations counted per clock hour (`oauth/RegistrationLimit.ts`): `scope` is
 * `all` or `address:<client address>`, `window_start` the hour. Rows of past hours are swept.
 */
export default ddl(
  `CREATE TABLE oauth_registration_windows (
    scope text NOT NULL,
    window_start timestamptz NOT NULL,
    used integer NOT NULL,
    PRIMARY KEY (scope, window_start)
  )`,
  `CREATE INDEX oauth_registration_windows_start_idx ON oauth_registration_windows (window_start)`
)
