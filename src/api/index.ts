// The client, its transport and the zod schemas are values only through ./lazy (loaded when a view
// first asks for data): re-exporting their values here would make every importer of '../api' build
// the schemas, and load zlib and the transport, at activation.
export type * from './client';
export type * from './connectionCheck';
export * from './errors';
export type * from './http';
export * from './pagination';
export * from './query';
export type * from './schemas';
export * from './vocabulary';
