/**
 * The process-wide unbridled posture (reference §1.9): authority is unchanged (the grant
 * still gates at L2), the kernel mechanism is dropped, and every result discloses it.
 * Set once by the loader after the two-key acknowledgement; it can never be unset.
 */
let unbridled = false;

export function setUnbridled(): void {
  unbridled = true;
}

export function isUnbridled(): boolean {
  return unbridled;
}
