// Raw imports of the Extism host ABI (module "extism:host/env"). Offsets are 64-bit handles into
// host-owned memory blocks, not pointers into this module's linear memory. Guests use the
// wrappers in ./index.ts rather than these.

// @ts-ignore: decorator
@external("extism:host/env", "input_length")
export declare function input_length(): u64;
// @ts-ignore: decorator
@external("extism:host/env", "input_load_u8")
export declare function input_load_u8(offs: u64): u8;
// @ts-ignore: decorator
@external("extism:host/env", "input_load_u64")
export declare function input_load_u64(offs: u64): u64;
// @ts-ignore: decorator
@external("extism:host/env", "alloc")
export declare function alloc(length: u64): u64;
// @ts-ignore: decorator
@external("extism:host/env", "free")
export declare function free(offs: u64): void;
// @ts-ignore: decorator
@external("extism:host/env", "length")
export declare function length(offs: u64): u64;
// @ts-ignore: decorator
@external("extism:host/env", "load_u8")
export declare function load_u8(offs: u64): u8;
// @ts-ignore: decorator
@external("extism:host/env", "load_u64")
export declare function load_u64(offs: u64): u64;
// @ts-ignore: decorator
@external("extism:host/env", "store_u8")
export declare function store_u8(offs: u64, value: u8): void;
// @ts-ignore: decorator
@external("extism:host/env", "store_u64")
export declare function store_u64(offs: u64, value: u64): void;
// @ts-ignore: decorator
@external("extism:host/env", "output_set")
export declare function output_set(offs: u64, length: u64): void;
// @ts-ignore: decorator
@external("extism:host/env", "error_set")
export declare function error_set(offs: u64): void;
// @ts-ignore: decorator
@external("extism:host/env", "config_get")
export declare function config_get(keyOffs: u64): u64;
// @ts-ignore: decorator
@external("extism:host/env", "var_get")
export declare function var_get(keyOffs: u64): u64;
// @ts-ignore: decorator
@external("extism:host/env", "var_set")
export declare function var_set(keyOffs: u64, valueOffs: u64): void;
// @ts-ignore: decorator
@external("extism:host/env", "http_request")
export declare function http_request(reqOffs: u64, bodyOffs: u64): u64;
// @ts-ignore: decorator
@external("extism:host/env", "http_status_code")
export declare function http_status_code(): i32;
// @ts-ignore: decorator
@external("extism:host/env", "log_info")
export declare function log_info(offs: u64): void;
// @ts-ignore: decorator
@external("extism:host/env", "log_debug")
export declare function log_debug(offs: u64): void;
// @ts-ignore: decorator
@external("extism:host/env", "log_warn")
export declare function log_warn(offs: u64): void;
// @ts-ignore: decorator
@external("extism:host/env", "log_error")
export declare function log_error(offs: u64): void;
