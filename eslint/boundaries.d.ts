/** Types for eslint/boundaries.js, which tests import. */
export declare const ADAPTERS: string[];
export declare const boundaries: unknown[];
