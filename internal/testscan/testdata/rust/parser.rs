//! A tiny expression parser.
//!
//! ```
//! assert_eq!(calc::parse("1+1").unwrap(), 2); // a doctest: not counted
//! ```

use std::collections::HashMap;

/// Parses `src`. Mentions #[test] and assert!(true) in a doc comment.
pub fn parse<'a>(src: &'a str) -> Result<i64, ParseError<'a>> {
    let quote = '\'';
    let brace = '{';
    let raw = r#"#[test] fn fake() { assert!(false) }"#;
    let s = "assert_eq!(1, 2) \" #[test]";
    debug_assert!(!src.is_empty(), "empty input");
    let _ = (quote, brace, raw, s);
    /* block comment /* nested #[test] */ still a comment assert!(x) */
    Ok(0)
}

pub struct ParseError<'a> {
    pub at: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn check(src: &str, want: i64) {
        assert_eq!(parse(src).ok(), Some(want), "parse({src:?})");
    }

    #[test]
    fn parses_numbers() {
        assert_eq!(parse("42").ok(), Some(42));
        assert!(parse("x").is_err());
    }

    #[test]
    fn uses_helper() {
        check("1+2", 3);
    }

    #[test]
    #[ignore = "slow: runs the whole grammar"]
    fn exhaustive() {
        for i in 0..1000 {
            assert_ne!(parse(&i.to_string()).ok(), None);
        }
    }

    #[test]
    #[should_panic(expected = "overflow")]
    fn overflows() {
        parse("99999999999999999999").unwrap();
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn parses_async() -> Result<(), Box<dyn std::error::Error>> {
        let v = tokio::spawn(async { parse("7") }).await?;
        assert!(matches!(v, Ok(7)));
        Ok(())
    }

    #[test]
    fn trivially_true() {
        assert!(true);
        assert_eq!(1, 1);
        assert_ne!(1, 2);
    }

    #[test]
    fn empty() {}

    #[test]
    fn lifetimes_and_chars<'b>() {
        let m: HashMap<&'b str, char> = HashMap::new();
        let c = 'x';
        let esc = '\u{1F600}';
        'outer: for _ in 0..1 {
            break 'outer;
        }
        assert!(m.is_empty() && c != esc);
    }

    mod nested {
        #[test]
        fn inner() {
            debug_assert_eq!(2 * 2, 4);
        }
    }

    proptest::proptest! {
        #[test]
        fn roundtrip(n in 0i64..1000) {
            prop_assert_eq!(super::parse(&n.to_string()).ok(), Some(n));
        }
    }
}
