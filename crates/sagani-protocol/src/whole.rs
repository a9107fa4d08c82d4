//! Whole numbers as JSON Schema counts them: `5` and `5.0` alike (an "integer" there is any
//! number without a fraction), so a request the OpenAPI document allows is never refused for
//! writing a count with a point. Use with `#[serde(deserialize_with = "whole::number")]`, or
//! `whole::option` with `#[serde(default)]`.

use serde::de::Error;
use serde::{Deserialize, Deserializer};

/// A whole number that fits `T`; a fraction, or one out of `T`'s range, is refused.
pub fn number<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<i128>,
{
    let n = serde_json::Number::deserialize(d)?;
    let whole: i128 = if let Some(u) = n.as_u64() {
        u.into()
    } else if let Some(i) = n.as_i64() {
        i.into()
    } else {
        let f = n.as_f64().unwrap_or(f64::NAN);
        // Beyond 2^63 a float holds no exact count any more: refused like a fraction.
        if f.fract() != 0.0 || f.abs() >= 9.2e18 {
            return Err(D::Error::custom(format!("{n} is not a whole number")));
        }
        f as i128
    };
    T::try_from(whole).map_err(|_| D::Error::custom(format!("{n} is out of range")))
}

/// `number`, for a field that may be missing or null.
pub fn option<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<i128>,
{
    #[derive(Deserialize)]
    struct Whole<T: TryFrom<i128>>(#[serde(deserialize_with = "number")] T);
    Ok(Option::<Whole<T>>::deserialize(d)?.map(|Whole(n)| n))
}

/// A value of the engine's own JSON (a move), its whole numbers written with a point read as
/// whole numbers first.
pub fn within<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    fn points(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Number(n) => {
                if let Some(f) = n.as_f64().filter(|_| !n.is_i64() && !n.is_u64()) {
                    if f.fract() == 0.0 && f.abs() < 9.2e18 {
                        *v = (f as i64).into();
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(points),
            serde_json::Value::Object(fields) => fields.values_mut().for_each(points),
            _ => {}
        }
    }
    let mut v = serde_json::Value::deserialize(d)?;
    points(&mut v);
    T::deserialize(v).map_err(D::Error::custom)
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Counts {
        #[serde(deserialize_with = "super::number")]
        a: u8,
        #[serde(default, deserialize_with = "super::option")]
        b: Option<u64>,
    }

    fn read(json: &str) -> Result<Counts, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn a_count_may_have_a_point_but_no_fraction() {
        let c = read(r#"{"a": 3.0, "b": 1404915644.0}"#).unwrap();
        assert_eq!((c.a, c.b), (3, Some(1404915644)));
        let c = read(r#"{"a": 3}"#).unwrap();
        assert_eq!((c.a, c.b), (3, None));
        assert_eq!(read(r#"{"a": 3, "b": null}"#).unwrap().b, None);
        for bad in [
            r#"{"a": 3.5}"#,
            r#"{"a": 256}"#,
            r#"{"a": -1}"#,
            r#"{"a": "3"}"#,
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
        assert!(read(r#"{"a": 1, "b": -1.0}"#)
            .unwrap_err()
            .contains("out of range"));
        assert!(read(r#"{"a": 1, "b": 1e300}"#).is_err());
    }

    #[test]
    fn a_move_may_write_its_numbers_with_a_point() {
        #[derive(Deserialize)]
        struct Sent {
            #[serde(deserialize_with = "super::within")]
            mv: sagani_core::Move,
        }
        let sent: Sent = serde_json::from_str(
            r#"{"mv": {"action": "place", "tile": 11.0, "x": -2.0, "y": 0, "rot": 1}}"#,
        )
        .unwrap();
        assert_eq!(
            sent.mv,
            serde_json::from_str(r#"{"action": "place", "tile": 11, "x": -2, "y": 0, "rot": 1}"#)
                .unwrap()
        );
        let half = r#"{"mv": {"action": "place", "tile": 11.5, "x": 0, "y": 0, "rot": 1}}"#;
        assert!(serde_json::from_str::<Sent>(half).is_err());
    }
}
