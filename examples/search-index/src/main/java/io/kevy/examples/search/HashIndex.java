package io.kevy.examples.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.MultiFieldQueryParser;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.NRTCachingDirectory;

/**
 * A Lucene index of kevy hashes: one document per key, holding the key (field {@code _key}, exact) and every
 * hash field as a stored text field of the same name (a field name starting with {@code _} gets one more
 * {@code _} in front, so it cannot clash with {@code _key}). Text is analysed with Lucene's
 * {@link EnglishAnalyzer} (stemming, stop words), except {@code name}, which uses the {@link StandardAnalyzer}
 * so that package names are not stemmed.
 *
 * <p>Writes go to an {@link IndexWriter}. {@link #get} is real time: it answers changes applied since the last
 * reopen from memory. Searches ({@link #search}, {@link #count}, {@link #all} ...) see every change applied
 * before they were called: they reopen the index (near real time, no commit) when something changed, so a
 * stream of small updates costs one reopen per search rather than one per update. {@link #commit} makes the
 * changes durable together with the user data given (the feed cursors, see {@link IndexCursorStore}), so a crash
 * resumes from a commit whose documents and cursors belong together.
 *
 * <p>Thread-safe: writes are serialized; searches run concurrently with them. Close it when done.
 */
public final class HashIndex implements AutoCloseable {
    /** The document field holding the kevy key. */
    public static final String KEY = "_key";
    /** Applied changes kept for {@link #get} before a reopen is forced. */
    static final int MAX_UNSEARCHED = 10_000;
    /** The fields searched when a query names none, and their boosts: {@code name} counts twice. */
    public static final Map<String, Float> DEFAULT_FIELDS = Map.of("name", 2f, "description", 1f);

    private final Directory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final Path path;
    /** Changes applied since the last reopen, key → fields (empty = deleted): what {@link #get} answers first. */
    private final Map<String, Optional<Map<String, String>>> unsearched = new HashMap<>();
    private boolean dirty;
    /** Serializes commits (never lock Lucene's own objects: IndexWriter synchronizes on itself). */
    private final Object commitLock = new Object();

    private HashIndex(Directory directory, Path path) throws IOException {
        this.directory = directory;
        this.path = path;
        IndexWriterConfig config = new IndexWriterConfig(ANALYZER)
                .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND).setCommitOnClose(true);
        this.writer = new IndexWriter(directory, config);
        this.searchers = new SearcherManager(writer, null);
    }

    /** The analyzer of documents and queries (thread-safe, shared, never closed). */
    private static final Analyzer ANALYZER = new PerFieldAnalyzerWrapper(new EnglishAnalyzer(),
            Map.of("name", new StandardAnalyzer(), KEY, new KeywordAnalyzer()));

    /**
     * Opens (or creates) the index in {@code dir} on disk.
     *
     * @throws UncheckedIOException when the directory cannot be opened or is locked by another writer
     */
    public static HashIndex open(Path dir) {
        try {
            // small segments flushed by the per-batch reopen stay in memory until merged or committed
            return new HashIndex(new NRTCachingDirectory(FSDirectory.open(dir), 8.0, 64.0), dir);
        } catch (IOException e) {
            throw new UncheckedIOException("opening the index in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** A new, empty index in memory (lost when closed). */
    public static HashIndex inMemory() {
        try {
            return new HashIndex(new ByteBuffersDirectory(), null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where the index is on disk; empty for an in-memory index. */
    public Optional<Path> path() {
        return Optional.ofNullable(path);
    }

    /**
     * Applies a set of changes: each entry is a key and its new fields (replacing the document) or an empty
     * optional (deleting it); an empty map of fields deletes too. {@link #get} sees them at once; searches see
     * them from their next call on (which reopens the index when something changed).
     */
    public synchronized void apply(Map<String, Optional<Map<String, String>>> changes) {
        try {
            for (Map.Entry<String, Optional<Map<String, String>>> e : changes.entrySet()) {
                Term id = new Term(KEY, e.getKey());
                Optional<Map<String, String>> fields = e.getValue().filter(f -> !f.isEmpty());
                if (fields.isEmpty()) {
                    writer.deleteDocuments(id);
                } else {
                    writer.updateDocument(id, document(e.getKey(), fields.get()));
                }
                unsearched.put(e.getKey(), fields.map(f -> Collections.unmodifiableMap(new TreeMap<>(f))));
            }
            if (unsearched.size() > MAX_UNSEARCHED) {
                refresh();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("updating the index: " + e.getMessage(), e);
        }
    }

    /** Deletes every document (an upstream FLUSHALL). */
    public synchronized void deleteAll() {
        try {
            writer.deleteAll();
            unsearched.clear();
            dirty = true;
            refresh();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reopens the searcher when something was applied since the last reopen. */
    private synchronized void refresh() throws IOException {
        if (!unsearched.isEmpty() || dirty) {
            searchers.maybeRefreshBlocking();
            unsearched.clear();
            dirty = false;
        }
    }

    private static Document document(String key, Map<String, String> fields) {
        Document d = new Document();
        d.add(new StringField(KEY, key, Field.Store.YES));
        for (Map.Entry<String, String> f : fields.entrySet()) {
            d.add(new TextField(fieldName(f.getKey()), f.getValue(), Field.Store.YES));
        }
        return d;
    }

    private static String fieldName(String hashField) {
        return hashField.startsWith("_") ? "_" + hashField : hashField;
    }

    private static Map<String, String> fields(Document d) {
        Map<String, String> m = new TreeMap<>();
        for (IndexableField f : d.getFields()) {
            if (!f.name().equals(KEY)) {
                m.put(f.name().startsWith("__") ? f.name().substring(1) : f.name(), f.stringValue());
            }
        }
        return Collections.unmodifiableMap(m);
    }

    private interface SearchFn<T> {
        T apply(IndexSearcher s) throws IOException;
    }

    /** Runs {@code fn} on a searcher that sees every change applied so far (reopening first if needed). */
    private <T> T withSearcher(SearchFn<T> fn) {
        try {
            refresh();
        } catch (IOException e) {
            throw new UncheckedIOException("reopening the index: " + e.getMessage(), e);
        }
        return withCurrentSearcher(fn);
    }

    private <T> T withCurrentSearcher(SearchFn<T> fn) {
        try {
            IndexSearcher s = searchers.acquire();
            try {
                return fn.apply(s);
            } finally {
                searchers.release(s);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the index: " + e.getMessage(), e);
        }
    }

    /**
     * The fields of {@code key}'s document as last applied, in name order; empty when there is none. Real time:
     * changes applied since the last reopen are answered from memory, without reopening.
     */
    public synchronized Optional<Map<String, String>> get(String key) {
        Optional<Map<String, String>> recent = unsearched.get(key);
        if (recent != null) {
            return recent;
        }
        return withCurrentSearcher(s -> {
            TopDocs top = s.search(new TermQuery(new Term(KEY, key)), 1);
            return top.scoreDocs.length == 0 ? Optional.empty()
                    : Optional.of(fields(s.storedFields().document(top.scoreDocs[0].doc)));
        });
    }

    /** Documents in the index. */
    public int count() {
        return withSearcher(s -> s.getIndexReader().numDocs());
    }

    /** Every document, key → fields (for checks and the rebuild's sweep; reads the whole index). */
    public Map<String, Map<String, String>> all() {
        return withSearcher(s -> {
            Map<String, Map<String, String>> out = new HashMap<>();
            TopDocs top = s.search(new MatchAllDocsQuery(), Math.max(1, s.getIndexReader().numDocs()));
            for (ScoreDoc d : top.scoreDocs) {
                Document doc = s.storedFields().document(d.doc);
                out.put(doc.get(KEY), fields(doc));
            }
            return out;
        });
    }

    /** The keys of every document. */
    public List<String> keys() {
        return new ArrayList<>(all().keySet());
    }

    /** One search hit: the key, Lucene's score, and the document's fields. */
    public record Hit(String key, float score, Map<String, String> fields) {
    }

    /**
     * The best {@code top} documents for {@code query} in Lucene's classic syntax ({@code compression library},
     * {@code section:python AND yaml}, {@code name:lib*}, {@code zlib OR gzip}); unqualified terms search
     * {@link #DEFAULT_FIELDS}, and every term must match (the default operator is AND, as in a search box).
     *
     * @throws IllegalArgumentException when the query does not parse (the message says where)
     */
    public List<Hit> search(String query, int top) {
        Query q = parse(query);
        return withSearcher(s -> hits(s, q, top));
    }

    /** Hits of {@code query} in the whole index. */
    public long countHits(String query) {
        Query q = parse(query);
        return withSearcher(s -> (long) s.count(q));
    }

    private static Query parse(String query) {
        String[] fields = DEFAULT_FIELDS.keySet().toArray(new String[0]);
        java.util.Arrays.sort(fields);
        MultiFieldQueryParser parser = new MultiFieldQueryParser(fields, ANALYZER, DEFAULT_FIELDS);
        parser.setDefaultOperator(QueryParser.Operator.AND);
        try {
            return parser.parse(query);
        } catch (ParseException e) {
            throw new IllegalArgumentException("bad query '" + query + "': " + e.getMessage(), e);
        }
    }

    private static List<Hit> hits(IndexSearcher s, Query q, int top) throws IOException {
        List<Hit> hits = new ArrayList<>();
        for (ScoreDoc d : s.search(q, top).scoreDocs) {
            Document doc = s.storedFields().document(d.doc);
            hits.add(new Hit(doc.get(KEY), d.score, fields(doc)));
        }
        return hits;
    }

    /**
     * Makes everything applied so far durable, with {@code userData} (replacing the previous commit's) stored
     * in the same commit.
     */
    public void commit(Map<String, String> userData) {
        // not under the index's lock: a commit fsyncs, and the writer takes updates meanwhile (a change applied
        // during the commit may be in it, ahead of the cursors in userData: re-applying it later is harmless)
        try {
            synchronized (commitLock) {
                writer.setLiveCommitData(new HashMap<>(userData).entrySet());
                writer.commit();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("committing the index: " + e.getMessage(), e);
        }
    }

    /** The user data of the last commit (empty for a new index). */
    public Map<String, String> committedUserData() {
        try {
            if (!DirectoryReader.indexExists(directory)) {
                return Map.of();
            }
            Map<String, String> m = new HashMap<>();
            for (var c : DirectoryReader.listCommits(directory)) {
                m = new HashMap<>(c.getUserData());
            }
            return m;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Searches the last commit of the index in {@code dir} without opening it for writing (another process may
     * be writing it): the {@code query} CLI.
     */
    public static List<Hit> searchCommitted(Path dir, String query, int top) {
        Query q = parse(query);
        try (Directory d = FSDirectory.open(dir); DirectoryReader reader = DirectoryReader.open(d)) {
            return hits(new IndexSearcher(reader), q, top);
        } catch (IOException e) {
            throw new UncheckedIOException("reading the index in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Commits (with the last user data set) and closes. */
    @Override
    public synchronized void close() {
        try {
            searchers.close();
            writer.close();
            directory.close();
        } catch (IOException e) {
            throw new UncheckedIOException("closing the index: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "HashIndex[" + (path == null ? "memory" : path) + "]";
    }
}
