//! Statistics for matches: confidence intervals of win rates and Elo ratings.

/// The Wilson score interval of `wins` out of `n` at 95% confidence, as fractions.
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    let p = wins / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo ratings (mean 1500) fitted by maximum likelihood (Bradley–Terry, minorization-
/// maximization) to pairwise results `(winner, loser)` between `players` players. Each player
/// also gets one virtual draw against a 1500 player, so that a clean sweep stays finite.
pub fn elo(players: usize, results: &[(usize, usize)]) -> Vec<f64> {
    if players == 0 {
        return Vec::new();
    }
    let mut wins = vec![0.5f64; players];
    let mut games = vec![vec![0f64; players]; players];
    for &(w, l) in results {
        wins[w] += 1.0;
        games[w][l] += 1.0;
        games[l][w] += 1.0;
    }
    // Strengths; the virtual opponent has strength 1.
    let mut s = vec![1f64; players];
    for _ in 0..2000 {
        let mut next = s.clone();
        for i in 0..players {
            let mut d = 1.0 / (s[i] + 1.0);
            for j in 0..players {
                if games[i][j] > 0.0 {
                    d += games[i][j] / (s[i] + s[j]);
                }
            }
            next[i] = wins[i] / d;
        }
        s = next;
    }
    let ratings: Vec<f64> = s.iter().map(|x| 400.0 * x.log10()).collect();
    let mean = ratings.iter().sum::<f64>() / players as f64;
    ratings.iter().map(|r| r - mean + 1500.0).collect()
}

pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.iter().sum::<f64>() / values.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_brackets_the_rate_and_narrows_with_more_games() {
        let (lo, hi) = wilson(70.0, 100.0);
        assert!(lo < 0.7 && 0.7 < hi);
        assert!(
            (lo - 0.604).abs() < 0.005 && (hi - 0.781).abs() < 0.005,
            "{lo} {hi}"
        );
        let (lo2, hi2) = wilson(700.0, 1000.0);
        assert!(hi2 - lo2 < hi - lo);
        assert_eq!(wilson(0.0, 0.0), (0.0, 1.0));
    }

    #[test]
    fn elo_of_a_76_percent_edge_is_about_200_points() {
        let mut r = Vec::new();
        for i in 0..1000 {
            r.push(if i % 100 < 76 { (0, 1) } else { (1, 0) });
        }
        let e = elo(2, &r);
        let gap = e[0] - e[1];
        assert!((gap - 200.0).abs() < 15.0, "{gap}");
        assert!((e[0] + e[1] - 3000.0).abs() < 1e-6);
        let sweep = elo(2, &[(0, 1); 10]);
        assert!(sweep[0].is_finite() && sweep[0] > sweep[1]);
    }

    #[test]
    fn median_and_mean() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(mean(&[1.0, 2.0]), 1.5);
    }
}
