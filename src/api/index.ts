// The client and the zod schemas are values only through ./lazy (loaded when a view first asks for
// data): re-exporting their values here would make every importer of '../api' build the schemas at
// activation.
export type * from './client';
export * from './errors';
export * from './http';
export * from './pagination';
export * from './proxy';
export * from './query';
export type * from './schemas';
export * from './vocabulary';
