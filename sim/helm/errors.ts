// The helm stand-in's error type: a failure whose message helm prints after `Error: ` verbatim.
export class HelmFailure extends Error {}
