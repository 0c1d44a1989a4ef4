// What the main step remembers of a create it sent to ARM (saved just before the PUT), so the post
// step can remove it whatever happened next: the cluster and node pool modules announce it, the
// cleanup reads it back.

/** A create this run sent to ARM: saved by the main step just before the PUT. */
export interface SubmittedCreate {
  resourceGroup: string
  cluster: string
  /** The node pool's name (pool creates only). */
  pool?: string
  /** The created-by tag value the create carried (this run's id). */
  createdBy: string
}

/** What the main step submitted creates for (read back from the saved state in post). */
export interface SubmittedCreates {
  cluster?: SubmittedCreate
  nodePool?: SubmittedCreate
}
