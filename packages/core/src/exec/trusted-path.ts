/**
 * The one `PATH` used to resolve bare program names while exec is restricted, and the
 * `PATH` every spawned child receives. A caller's or script's `PATH` is never used for
 * resolution under a restricted exec grant.
 */
export const TRUSTED_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
