//! `--svg`: each bot's score distribution, one line per bot.

use crate::error::CliError;
use plotters::prelude::*;
use sagani_ai::arena::Tally;
use std::path::Path;

/// Scores are counted in buckets of this many points.
const BUCKET: f64 = 5.0;

pub fn score_svg(tally: &Tally, path: &Path) -> Result<(), CliError> {
    let all: Vec<f64> = tally
        .bots
        .iter()
        .flat_map(|b| b.scores.iter().copied())
        .collect();
    if all.is_empty() {
        return Err(CliError::Found("no scores to draw".into()));
    }
    let bucket = |s: f64| (s / BUCKET).floor() * BUCKET;
    let lo = bucket(all.iter().copied().fold(f64::INFINITY, f64::min));
    let hi = bucket(all.iter().copied().fold(f64::NEG_INFINITY, f64::max)) + BUCKET;
    let series: Vec<(String, Vec<(f64, f64)>)> = tally
        .bots
        .iter()
        .map(|b| {
            let n = ((hi - lo) / BUCKET) as usize + 1;
            let mut counts = vec![0usize; n];
            for &s in &b.scores {
                counts[((bucket(s) - lo) / BUCKET) as usize] += 1;
            }
            let total = b.scores.len().max(1) as f64;
            let points = counts
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    (
                        lo + i as f64 * BUCKET + BUCKET / 2.0,
                        100.0 * c as f64 / total,
                    )
                })
                .collect();
            (b.name.clone(), points)
        })
        .collect();
    let top = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(_, y)| y))
        .fold(1.0, f64::max);
    let root = SVGBackend::new(path, (800, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(cannot_draw(path))?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Score distribution per bot", ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(lo..hi, 0.0..top * 1.1)
        .map_err(cannot_draw(path))?;
    chart
        .configure_mesh()
        .x_desc(format!("final score (buckets of {BUCKET} points)"))
        .y_desc("% of the bot's games")
        .draw()
        .map_err(cannot_draw(path))?;
    for (i, (name, points)) in series.into_iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))
            .map_err(cannot_draw(path))?
            .label(name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(cannot_draw(path))?;
    root.present().map_err(cannot_draw(path))?;
    Ok(())
}

/// A drawing error of plotters, with the file it was drawing.
fn cannot_draw<E>(path: &Path) -> impl FnOnce(E) -> CliError + '_
where
    E: std::error::Error + Send + Sync + 'static,
{
    move |e| CliError::Draw {
        path: path.to_path_buf(),
        source: Box::new(e),
    }
}
