// The fixture builder ships with the package (zonewarden/rules/testing), so custom rules are tested as the built-in ones.
export * from '../../src/rules-api/fixture.js';
