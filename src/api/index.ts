export * from './client';
export * from './errors';
export * from './http';
export * from './pagination';
export * from './proxy';
export * from './query';
export * from './schemas';
