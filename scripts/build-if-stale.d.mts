/** Types of build-if-stale.mjs (npm start's build step, plain JavaScript), for the tests. */
export declare const INPUT_DIRS: readonly string[];
export declare const INPUT_FILES: readonly string[];
export declare const STAMP: string;
export declare const TS_BUILD_INFO: string;
export declare const OUTPUT: string;
export declare function inputFingerprint(root: string): string;
export declare function isStale(root: string): boolean;
export declare function buildIfStale(root: string, log?: (line: string) => void): number;
export declare function build(root: string): number;
