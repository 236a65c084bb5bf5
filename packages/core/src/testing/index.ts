/**
 * `@a3s-code/core/testing`: test doubles that ship with the product.
 */
export {};
