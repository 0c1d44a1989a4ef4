// The shapes the object store keeps and the names it gives them: resource types, objects and
// their metadata, watch events, the StoreError a refused operation throws, and how a type and a
// time are written in the server's messages. A module of its own so that the store's helpers
// (deletion.ts, continue.ts) share them without importing the store.

export interface ResourceType {
  group: string // '' for core
  /** The version objects are stored at (a CRD's storage version). */
  version: string
  /** Every version served, when more than one (CRDs: conversion None between them). */
  versions?: string[]
  plural: string
  singular: string
  kind: string
  namespaced: boolean
  shortNames?: string[]
  /** Discovery categories (`kubectl get <category>`). */
  categories?: string[]
  verbs?: string[]
  /** Subresources served (e.g. ['status', 'log']). */
  subresources?: string[]
}

export interface ObjectMeta {
  name: string
  namespace?: string
  uid?: string
  resourceVersion?: string
  generation?: number
  creationTimestamp?: string
  deletionTimestamp?: string
  deletionGracePeriodSeconds?: number
  finalizers?: string[]
  labels?: Record<string, string>
  annotations?: Record<string, string>
  ownerReferences?: Array<{
    apiVersion: string
    kind: string
    name: string
    uid: string
    controller?: boolean
    blockOwnerDeletion?: boolean
  }>
  managedFields?: unknown[]
  generateName?: string
  [k: string]: unknown
}

export interface KubeObject {
  apiVersion: string
  kind: string
  metadata: ObjectMeta
  [k: string]: any
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'
export interface WatchEvent {
  type: WatchEventType
  object: KubeObject
}

export type StoreErrorReason =
  'NotFound' | 'AlreadyExists' | 'Conflict' | 'Invalid' | 'Gone' | 'BadRequest' | 'Forbidden'

export class StoreError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StoreErrorReason,
    message: string,
    readonly causes?: Array<{ reason?: string; message?: string; field?: string }>
  ) {
    super(message)
  }
}

export function typeKey(t: Pick<ResourceType, 'group' | 'plural'>): string {
  return t.group ? `${t.plural}.${t.group}` : t.plural
}

export function apiVersionOf(t: ResourceType): string {
  return t.group ? `${t.group}/${t.version}` : t.version
}

/** `pods` / `daemonsets.apps`: how a resource is named in the server's messages. */
export function resourceName(t: Pick<ResourceType, 'group' | 'plural'>): string {
  return typeKey(t)
}

/** RFC 3339 at second precision, as metav1.Time serialises. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')
}
