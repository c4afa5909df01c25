package scheduler

import corev1 "k8s.io/api/core/v1"

// ImageLocalityName is the plugin's upstream name.
const ImageLocalityName = "ImageLocality"

// ImageLocality favours nodes that already hold the pod's images, each image
// weighted by how widely it has spread (plugins/imagelocality).
type ImageLocality struct{}

func newImageLocality(any) (Plugin, error) { return ImageLocality{}, nil }

func (ImageLocality) Name() string { return ImageLocalityName }

const (
	mb                    int64 = 1024 * 1024
	imageMinThreshold           = 23 * mb
	imageMaxContainerSize       = 1000 * mb
)

var preScoreImageLocalityKey = NewStateKey("PreScore" + ImageLocalityName)

type imageState struct {
	images      [][]int64 // per pod image some node holds: size by node slot
	imageSpread []float64 // nodesWithImage / allNodes, per entry of images
	imageCount  int       // init + regular containers
}

func (ImageLocality) PreScore(st *CycleState, pod *corev1.Pod, _ []*NodeInfo) *Status {
	s := stateOf[imageState](st, preScoreImageLocalityKey)
	s.images, s.imageSpread = s.images[:0], s.imageSpread[:0]
	s.imageCount = len(pod.Spec.InitContainers) + len(pod.Spec.Containers)
	total := float64(len(st.cluster.order))
	add := func(image string) {
		name := normalizedImageName(image)
		if k := st.cluster.imageNodes(name); k > 0 { // on no node: adds nothing anywhere
			s.images = append(s.images, st.cluster.imageSizes(name))
			s.imageSpread = append(s.imageSpread, float64(k)/total)
		}
	}
	for i := range pod.Spec.InitContainers {
		add(pod.Spec.InitContainers[i].Image)
	}
	for i := range pod.Spec.Containers {
		add(pod.Spec.Containers[i].Image)
	}
	return nil
}

// Score is 100*(sum−23MiB)/(maxThreshold−23MiB) with sum clamped to
// [23MiB, 1000MiB × containers] and sum = Σ size × nodesWithImage/allNodes
// over init and regular containers.
func (ImageLocality) Score(st *CycleState, _ *corev1.Pod, n *NodeInfo) int64 {
	return readState[imageState](st, preScoreImageLocalityKey).score(n)
}

// scoreAll is Score over the feasible nodes, the state read once.
func (ImageLocality) scoreAll(st *CycleState, _ *corev1.Pod, feasible []*NodeInfo, scores []int64) {
	s := readState[imageState](st, preScoreImageLocalityKey)
	for j, n := range feasible {
		scores[j] = s.score(n)
	}
}

func (s *imageState) score(n *NodeInfo) int64 {
	var sum int64
	for i, sizes := range s.images {
		if int(n.slot) < len(sizes) && sizes[n.slot] > 0 {
			sum += int64(float64(sizes[n.slot]) * s.imageSpread[i])
		}
	}
	maxThreshold := imageMaxContainerSize * int64(s.imageCount)
	if maxThreshold <= imageMinThreshold {
		return 0
	}
	sum = min(max(sum, imageMinThreshold), maxThreshold)
	return MaxNodeScore * (sum - imageMinThreshold) / (maxThreshold - imageMinThreshold)
}
