/** Types for eslint/boundaries.js, which tests and scripts import. */
export declare const ADAPTERS: string[];

/** A room of the repository and what its files may import (eslint/boundaries.js says each field). */
export interface Room {
  room: string;
  paths: string[];
  rooms: string[];
  except?: string[];
  modules: string[];
  why: string;
}

export declare const ROOMS: Room[];
export declare const CHECKED: string[];
export declare const boundaries: unknown[];
