package com.example.parser;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

import junit.framework.TestCase;
import org.junit.Ignore;
import org.junit.Test;

public class LegacyParserTests {

    @Test(expected = ParseException.class)
    public void rejectsGarbage() throws Exception {
        new Parser().parse("%%%");
    }

    @Test(timeout = 1000)
    public void parsesQuickly() {
        assertThat(new Parser().parse("1").value(), is(1));
    }

    @Ignore("see #77")
    @Test
    public void parsesUnicode() {
        assertThat(new Parser().parse("\u0661").value(), is(1));
    }

    @Test
    public void selfComparison() {
        int v = 3;
        assertThat(v, is(v));
        assert true : "always";
    }

    public static class OldStyle extends TestCase {
        public void testParses() {
            assertEquals("x", new Parser().parse("x").text());
        }

        public void testEmpty() {
        }

        public void helperNotATest() {
            assertTrue(true);
        }
    }
}
