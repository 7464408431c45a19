/**
 * The end-to-end demo ({@code bin/kevy demo}): {@link io.kevy.examples.demo.DemoMain} runs
 * {@link io.kevy.examples.demo.Demo}, whose six steps start kevy-server in-process, three sinks on its change
 * feed (the search index, the cache, a JSON-lines bridge), load the Debian package catalog, change it, force a
 * resync of the index and check that every sink agrees with the server. Arguments and results are non-null
 * unless a method says otherwise.
 */
package io.kevy.examples.demo;
